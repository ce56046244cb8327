// customer.deleted: the customer's personal data was erased (data: passUserId, externalCustomerId as it was, cardId).
export const EVENT_TYPES = ['customer.enrolled', 'balance.updated', 'reward.redeemed', 'level.changed', 'customer.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event envelope (docs/webhooks.md#what-arrives), exactly as receivers get it. */
export interface EventEnvelope {
  id: string;
  type: EventType;
  createdAt: string;
  orgId: string;
  livemode: boolean;
  data: Record<string, unknown>;
}
