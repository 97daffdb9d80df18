// The engine's last line against JavaScript's own limits. A function that runs into one (a string
// or an array longer than V8 makes, the call stack) gives an Excel error for its call instead of
// failing the whole job with a 500. Each such case is a bug in that function (it should have
// checked before asking), so it is told to listeners: the formula fuzzer fails on any.
import { ERR, type FormulaError } from "./values.ts";

type Listener = (error: RangeError, fn: string) => void;
const listeners = new Set<Listener>();

/** Hears of every RangeError a function call ran into; returns the unsubscribe. */
export function onContainedError(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * What a function call that threw gives: #NUM! for the call stack (a recursion too deep), #VALUE!
 * for a string or array too long. Anything but a RangeError (NeedCell, the budget's SheetsError,
 * a bug) is thrown on.
 */
export function contained(error: unknown, fn: string): FormulaError {
  if (!(error instanceof RangeError)) throw error;
  for (const listener of listeners) listener(error, fn);
  return /call stack/i.test(error.message) ? ERR.NUM : ERR.VALUE;
}
