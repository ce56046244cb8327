// customer.deleted: the customer's personal data was erased (data: passUserId, externalCustomerId as it was, cardId).
export const EVENT_TYPES = ['customer.enrolled', 'balance.updated', 'reward.redeemed', 'level.changed', 'customer.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The envelope of spec 6, exactly as receivers get it. */
export interface EventEnvelope {
  id: string;
  type: EventType;
  createdAt: string;
  orgId: string;
  livemode: boolean;
  data: Record<string, unknown>;
}
