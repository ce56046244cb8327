// The console's one browser script (an embedded asset, console.js): a list of the page
// enhancements, each in its own module, each doing nothing on a page without its elements.
import './card-editor';
