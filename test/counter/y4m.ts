// A fake camera's film for Chromium (--use-file-for-fake-video-capture): a Y4M file whose frames
// show a QR code. Y4M is a text header and raw frames ("FRAME\n" + Y plane + U + V in 4:2:0); a
// QR drawn in the Y (brightness) plane with neutral colour planes (128) is all a reader needs.
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

export function writeQrY4m(file: string, text: string, options: { width?: number; height?: number; frames?: number } = {}): void {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const modules = qr.modules.size;
  // Four modules of white quiet zone on each side, as the QR standard asks.
  const scale = Math.floor((Math.min(width, height) * 0.8) / (modules + 8));
  const side = scale * (modules + 8);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const y = Buffer.alloc(width * height, 200); // a light grey table around the card
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const mr = Math.floor(row / scale) - 4;
      const mc = Math.floor(col / scale) - 4;
      const dark = mr >= 0 && mc >= 0 && mr < modules && mc < modules && qr.modules.get(mr, mc) === 1;
      y[(top + row) * width + left + col] = dark ? 16 : 235;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  const frames = Array.from({ length: options.frames ?? 2 }, () => frame);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), ...frames]));
}
