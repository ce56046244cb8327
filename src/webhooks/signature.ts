import { createHmac } from 'node:crypto';

/**
 * `X-Loyalty-Signature: t=<unix seconds>,v1=<hex>` where v1 is HMAC-SHA256, keyed with the
 * endpoint's whole secret (`whsec_…`), over `<t>.<exact body>` (docs/webhooks.md#verify-the-signature). Signing the
 * timestamp with the body lets receivers reject old captures (300 s tolerance).
 */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
