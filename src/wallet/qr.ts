// The customer's scan code as a QR code, drawn on the server as SVG: the web pass needs no
// script or image request to show it, and works with no wallet certificates at all.
import QRCode from 'qrcode';

export async function qrSvg(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
  return svg.trim().replace('<svg ', '<svg role="img" aria-label="QR code to scan at the counter" ');
}
