// The console's one bundled browser script (embedded-assets.json "console.js"). Each module below
// enhances pages that work without it, and does nothing on a page without its elements; this file
// only lists them.
import './card-editor';
import './promotion-form';
import './copy';
import './settings';
import './pin-toggle';
