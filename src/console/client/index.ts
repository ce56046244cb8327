// The console's one bundled browser script (embedded-assets.json "console.js"). Each module below
// enhances pages that work without it; this file only lists them.
import './copy';
