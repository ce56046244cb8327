import { STATUS_CODES } from 'node:http';
import type { Reason } from './reasons';

export type { Reason } from './reasons';

/**
 * The one error class. `code` is what clients branch on; the body is
 * { statusCode, error, message, ...extra } where `message` starts with the code,
 * unless `exactMessage` gives a fixed wording (the scope 403 `Missing scope(s): <scope>`).
 * `reason` (and each validation issue's) states the refusal as values for pages in other
 * languages; like `issues`' reasons it is never part of the body.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  /** Overrides the `error` field (the HTTP reason phrase by default). */
  readonly errorName: string | undefined;
  readonly headers: Record<string, string>;
  /** The refusal as values (lib/reasons.ts); not in the body. */
  readonly reason: Reason | undefined;
  /** A VALIDATION_FAILED's issues with their reasons; the body's `issues` have their path and message only. */
  readonly issues: readonly ValidationIssue[];

  constructor(
    status: number,
    code: string,
    options: {
      detail?: string;
      exactMessage?: string;
      extra?: Record<string, unknown>;
      errorName?: string;
      headers?: Record<string, string>;
      reason?: Reason;
      issues?: readonly ValidationIssue[];
    } = {},
  ) {
    const message = options.exactMessage ?? (options.detail ? `${code}: ${options.detail}` : code);
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.extra = options.extra ?? {};
    this.errorName = options.errorName;
    this.headers = options.headers ?? {};
    this.reason = options.reason;
    this.issues = options.issues ?? (Array.isArray(this.extra.issues) ? (this.extra.issues as ValidationIssue[]) : []);
  }

  toBody(): Record<string, unknown> {
    return {
      statusCode: this.status,
      error: this.errorName ?? STATUS_CODES[this.status] ?? 'Error',
      message: this.message,
      ...this.extra,
    };
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
  /** The message as values (lib/reasons.ts); never in the body. */
  reason?: Reason;
}

export function validationFailed(issues: ValidationIssue[]): ApiError {
  const paths = [...new Set(issues.map((i) => i.path || '(body)'))];
  return new ApiError(400, 'VALIDATION_FAILED', { detail: paths.join(', '), extra: { issues: issues.map(({ path, message }) => ({ path, message })) }, issues });
}

export const notFound = (code: string, detail?: string) => new ApiError(404, code, { detail });
export const badRequest = (code: string, detail?: string, extra?: Record<string, unknown>, reason?: Reason) => new ApiError(400, code, { detail, extra, reason });
export const conflict = (code: string, detail?: string, extra?: Record<string, unknown>) => new ApiError(409, code, { detail, extra });

const IN_WORDS = new WeakSet<ApiError>();

/** Marks a refusal whose message is already in the reader's language (a catalogue's words), so no page words it again. */
export function inWords<E extends ApiError>(err: E): E {
  IN_WORDS.add(err);
  return err;
}

export const isInWords = (err: ApiError): boolean => IN_WORDS.has(err);
