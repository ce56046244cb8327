import { startCounter } from './counter';
import { startPinScreen } from './pin';

// The counter's one script (bundled by esbuild into /assets/counter.<hash>.js): the PIN screen's
// number pad, or the counter itself.
const counter = document.getElementById('counter');
const lock = document.getElementById('counter-lock');
if (counter) startCounter(counter);
else if (lock) startPinScreen(lock);
