// The customer's scan code as a QR code, drawn on the server as SVG: the web pass needs no
// script or image request to show it, and works with no wallet certificates at all.
import QRCode from 'qrcode';
import { escapeHtml } from '../web/html';

export async function qrSvg(text: string, label = 'QR code to scan at the counter'): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
  return svg.trim().replace('<svg ', `<svg role="img" aria-label="${escapeHtml(label)}" `);
}
