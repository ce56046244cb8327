// Structured JSON logs: one object per line on stdout (errors on stderr).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite): Logger {
  const threshold = ORDER[level];
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < threshold) return;
    const entry = { time: new Date().toISOString(), level: lvl, msg, ...fields };
    write(JSON.stringify(entry, errorReplacer), ORDER[lvl] >= ORDER.error);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

// Each line is written as it happens (on a file or a pipe, synchronously): a crash or a kill loses
// none that was logged before it.
function defaultWrite(line: string, isError: boolean) {
  (isError ? process.stderr : process.stdout).write(line + '\n');
}

// Errors serialise to {} by default; keep what helps an operator (stack stays in the log, never in a response).
function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
