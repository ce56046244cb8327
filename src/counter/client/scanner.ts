import { BarcodeDetector as ZxingDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import { say } from './texts';

// The camera path: the browser's own BarcodeDetector where it has one (Chromium on Android,
// ChromeOS, macOS), else the barcode-detector polyfill (ZXing compiled to wasm). The wasm is
// served by this server from the bundle (`wasmUrl`, a content-hashed /assets/ address): the
// library's default would fetch it from a CDN, and pages load nothing from another host.

/** Every pass barcode this server issues is a QR code; Aztec, PDF417 and Code 128 read too, for cards printed elsewhere. */
const FORMATS = ['qr_code', 'aztec', 'pdf417', 'code_128'] as const;
/** How often a frame is read: fast enough to feel instant, slow enough to leave the tablet cool. */
const FRAME_MS = 120;

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}

interface NativeDetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
}

export class CameraUnavailable extends Error {}

async function detector(wasmUrl: string): Promise<Detector> {
  const native = (window as unknown as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (native) {
    const supported = await native.getSupportedFormats().catch(() => [] as string[]);
    if (supported.includes('qr_code')) return new native({ formats: FORMATS.filter((f) => supported.includes(f)) });
  }
  prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) } });
  return new ZxingDetector({ formats: [...FORMATS] });
}

export interface Scanner {
  stop(): void;
}

/** Films with the back camera and calls onCode once with the first barcode it reads. */
export async function startScanner(video: HTMLVideoElement, wasmUrl: string, onCode: (code: string) => void): Promise<Scanner> {
  if (!window.isSecureContext) {
    throw new CameraUnavailable(say('cameraInsecure'));
  }
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraUnavailable(say('cameraNone'));
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
  } catch (err) {
    const denied = err instanceof DOMException && (err.name === 'NotAllowedError' || err.name === 'SecurityError');
    throw new CameraUnavailable(say(denied ? 'cameraBlocked' : 'cameraMissing'));
  }
  let stopped = false;
  const stop = () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  const reader = await detector(wasmUrl);
  const tick = async () => {
    if (stopped) return;
    try {
      if (video.readyState >= 2) {
        const found = (await reader.detect(video)).find((b) => b.rawValue);
        if (found && !stopped) {
          stop();
          onCode(found.rawValue);
          return;
        }
      }
    } catch {
      // A frame that cannot be read (the camera still starting): try the next one.
    }
    setTimeout(tick, FRAME_MS);
  };
  void tick();
  return { stop };
}
