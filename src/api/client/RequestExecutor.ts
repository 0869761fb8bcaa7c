/**
 * Sends every request of the process through one rate-limited queue and turns answers into
 * JSON bodies or typed errors. Longer than most files because the retry loop, the 429 pause and
 * the fatal/closed states interlock and read best together.
 *
 * Each attempt is one queue task, so retries count against the limit. Besides the configured plan
 * (the queue's window), every answer's x-ratelimit-* headers pace the sends (ServerWindow):
 * whichever is tighter wins, and a 429 is the fallback, not how the limit is found. A 429 closes the PauseGate
 * (queue paused, and dequeued tasks defer instead of sending); 5xx and network errors back off
 * outside the queue, holding no slot; 401/403 fail the whole client.
 *
 * A call may carry signals (PredictionClient.withSignal): when one aborts, the call is dropped
 * wherever it is (queued behind the rate limit or a 429 pause, backing off, in flight) and
 * rejects at once with ApiRequestAbortedError. abort() does the same for every call.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import PQueue from 'p-queue';

import { backoffDelayMs } from '../../retry/backoffDelayMs.js';
import { linkSignals } from '../../signals/linkSignals.js';
import type { ApiRequest } from '../endpoints/requests.js';
import {
  ApiBadRequestError,
  ApiClientClosedError,
  type ApiError,
  ApiInvalidJsonError,
  ApiKeyRejectedError,
  ApiNotFoundError,
  ApiRateLimitedError,
  ApiRequestAbortedError,
  type ApiRequestContext,
  ApiResponseTooLargeError,
  ApiServerError,
  ApiUnexpectedStatusError,
} from '../errors.js';
import { type ClientStats, ClientStatsRecorder } from './ClientStats.js';
import { type HttpResponse, HttpTransport } from './HttpTransport.js';
import { PauseGate } from './PauseGate.js';
import type { ResolvedClientOptions } from './PredictionClientOptions.js';
import { rateLimitWaitMs } from './rateLimitWaitMs.js';
import { readErrorBody } from './readErrorBody.js';
import type { RequestEvent } from './RequestEvent.js';
import { RetryWarnings } from './RetryWarnings.js';
import { planAboveServer, ServerWindow } from './ServerWindow.js';

/** How one call is queued, observed and cancelled. */
export interface CallOptions {
  /** Order in the shared queue, higher first. Default 0. */
  readonly priority?: number;
  /** Told of each attempt of this call (per-job request accounting). */
  readonly observe?: ((event: RequestEvent) => void) | undefined;
  /** Aborting any of these drops the call (ApiRequestAbortedError, the signal's reason as `cause`). */
  readonly signals?: readonly AbortSignal[];
  /** Body cap of this call, when lower than the client's `maxResponseBytes`. */
  readonly maxResponseBytes?: number;
}

type Outcome =
  | { kind: 'deferred' }
  | { kind: 'ok'; body: unknown }
  | { kind: 'rateLimited'; error: ApiRateLimitedError }
  | { kind: 'retry'; error: ApiError };

export class RequestExecutor {
  readonly #queue: PQueue;
  readonly #gate: PauseGate;
  readonly #window = new ServerWindow();
  /** A plan above what the server grants is said once per client. */
  #planWarned = false;
  readonly #transport: HttpTransport;
  readonly #stats = new ClientStatsRecorder();
  readonly #retryWarnings = new RetryWarnings();
  /** Controllers of tasks still waiting in the queue: aborting one removes it and rejects its call. */
  readonly #queued = new Set<AbortController>();
  /** Aborted by abort() and by a fatal error: cuts requests in flight. */
  readonly #inFlight = new AbortController();
  /** Aborted by any stop: cuts backoff sleeps. */
  readonly #scheduling = new AbortController();
  #stopReason: Error | undefined;
  #state: ClientStats['state'] = 'open';
  #headerless429Streak = 0;
  #transportShutdown: Promise<void> | undefined;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly base: { origin: string; basePath: string },
  ) {
    this.#queue = new PQueue({
      concurrency: options.concurrency,
      intervalCap: options.rateLimit.requests,
      interval: options.rateLimit.windowMs + options.rateLimit.marginMs,
      // Sliding window: the default fixed window lets 2x the cap through around a window edge.
      strict: true,
    });
    this.#gate = new PauseGate({
      onClose: () => this.#queue.pause(),
      onOpen: () => {
        if (!this.#stopReason) this.#queue.start();
      },
    });
    this.#transport = new HttpTransport({ ...options, origin: base.origin });
    // Every request in flight and every backoff sleep listens on these: dozens at once is normal, not a leak.
    setMaxListeners(0, this.#inFlight.signal, this.#scheduling.signal);
  }

  /**
   * Sends `request` (retrying as configured) and returns the parsed JSON body of the 2xx answer.
   * `priority` orders it in the shared queue (higher first); its retries and deferred sends go at
   * `priority + 0.5`: ahead of first attempts of the same priority, not of a higher one.
   */
  async getJson(request: ApiRequest, call: CallOptions = {}): Promise<unknown> {
    const target = `${this.base.basePath}${request.path}${request.query ? `?${request.query}` : ''}`;
    const ctx: ApiRequestContext = { method: 'GET', endpoint: request.endpoint, target };
    const signals = call.signals ?? [];
    if (signals.length === 0) return this.#run(ctx, call, undefined);
    // One signal for the call, whose reason is the error the call rejects with wherever it waits.
    const scope = linkSignals(signals, (reason) => new ApiRequestAbortedError('Request aborted', { request: ctx, cause: reason }));
    try {
      return await this.#run(ctx, call, scope.signal);
    } finally {
      scope.dispose();
    }
  }

  async #run(ctx: ApiRequestContext, call: CallOptions, scope: AbortSignal | undefined): Promise<unknown> {
    const { target } = ctx;
    const priority = call.priority ?? 0;
    let sent = 0;
    let failures = 0;
    let rateLimited = 0;
    let requeued = false;
    for (;;) {
      if (this.#stopReason) throw this.#stopReason;
      if (scope?.aborted) throw scope.reason;
      // A retry does not go to the back of the line behind calls made while it waited.
      const outcome = await this.#enqueue(
        () => this.#attempt(ctx, sent + 1, call, scope),
        sent > 0 || requeued ? priority + 0.5 : priority,
        scope,
      );
      requeued = true;
      if (outcome.kind === 'deferred') continue;
      sent += 1;
      if (outcome.kind === 'ok') return outcome.body;
      if (outcome.kind === 'rateLimited') {
        rateLimited += 1;
        if (rateLimited > this.options.maxRateLimitRetries) throw outcome.error;
        this.#stats.recordRetry();
        continue;
      }
      failures += 1;
      if (failures >= this.options.maxAttempts) throw outcome.error;
      const delayMs = backoffDelayMs(failures, this.options.backoff, this.options.random);
      const logged = this.#retryWarnings.take(ctx.endpoint);
      if (logged !== null) {
        this.options.logger?.warn(
          {
            endpoint: ctx.endpoint,
            target,
            attempt: sent,
            delayMs,
            err: outcome.error.message,
            unloggedRetriesBefore: logged.unloggedBefore,
          },
          'retrying API request',
        );
      }
      this.#stats.recordRetry();
      await this.#sleep(delayMs, scope);
    }
  }

  stats(): ClientStats {
    return this.#stats.snapshot({
      queue: { size: this.#queue.size, pending: this.#queue.pending },
      pausedUntilMs: this.#stopReason ? null : this.#gate.closedUntilMs,
      state: this.#state,
      planRequestsPerMinute: this.#planRpm(),
      serverWindow: this.#window.snapshot(),
    });
  }

  /** Stops scheduling, rejects queued calls, lets requests in flight finish, then closes the connections. */
  async close(): Promise<void> {
    this.#stop(new ApiClientClosedError('The API client was closed'));
    this.#transportShutdown ??= this.#transport.close();
    await this.#transportShutdown;
  }

  /** Like close(), but also aborts requests in flight; every call rejects with ApiRequestAbortedError. */
  async abort(): Promise<void> {
    this.#stop(new ApiRequestAbortedError('The API client was aborted'));
    this.#inFlight.abort(this.#stopReason);
    // A graceful close may be under way: destroying settles it too.
    const destroying = this.#transport.destroy().catch(() => undefined);
    this.#transportShutdown ??= destroying;
    await destroying;
  }

  /**
   * Runs `task` in the queue. The outcome travels through `slot`, not through the queue's promise:
   * p-queue keeps dequeued entries (and through them each task's settled promise) until its
   * backlog drains or compacts, so finished calls' parsed bodies, order books included, stayed
   * reachable as long as a backlog lasted. `slot` is emptied as soon as the outcome is handed over.
   */
  async #enqueue(task: () => Promise<Outcome>, priority: number, scope: AbortSignal | undefined): Promise<Outcome> {
    // Aborted by a stop while queued; by the call's scope while queued or running (p-queue then rejects at once).
    const controller = new AbortController();
    const onScopeAbort = () => controller.abort(scope!.reason);
    scope?.addEventListener('abort', onScopeAbort, { once: true });
    this.#queued.add(controller);
    const slot: { outcome?: Outcome } = {};
    try {
      await this.#queue.add(
        async () => {
          this.#queued.delete(controller);
          const outcome = await task();
          // An abandoned task must not park its body where the queue's leftovers can still reach it.
          if (!controller.signal.aborted) slot.outcome = outcome;
        },
        { signal: controller.signal, priority },
      );
      return slot.outcome!;
    } finally {
      delete slot.outcome;
      this.#queued.delete(controller);
      scope?.removeEventListener('abort', onScopeAbort);
    }
  }

  async #attempt(ctx: ApiRequestContext, attempt: number, call: CallOptions, scope: AbortSignal | undefined): Promise<Outcome> {
    const { observe } = call;
    if (this.#stopReason) throw this.#stopReason;
    if (scope?.aborted) throw scope.reason;
    // Dequeued before a 429 paused the queue: do not send; go back in line (the slot is lost, which errs on the safe side).
    if (this.#gate.isClosed()) return { kind: 'deferred' };
    const seq = await this.#reserveInWindow(scope);
    // A 429 may have paused sending while this waited for the window: the reserved send counts as spent.
    if (this.#gate.isClosed()) {
      this.#window.answered(seq, undefined);
      return { kind: 'deferred' };
    }
    const startedAt = performance.now();
    let status: number | undefined;
    let waitMs: number | undefined;
    let answerHeaders: IncomingHttpHeaders | undefined;
    let response: HttpResponse;
    const stop = scope ? linkSignals([this.#inFlight.signal, scope]) : undefined;
    try {
      response = await this.#transport.send(
        ctx,
        stop?.signal ?? this.#inFlight.signal,
        (headerStatus, headers) => {
          status = headerStatus;
          answerHeaders = headers;
          // Before the body is read: every millisecond the gate stays open after a 429 risks another send.
          if (headerStatus === 429) waitMs = this.#pauseFor429(headers, ctx);
        },
        call.maxResponseBytes,
      );
    } catch (error) {
      const cut = error === this.#stopReason || error instanceof ApiRequestAbortedError;
      this.#report(ctx, status ?? (cut ? 'aborted' : 'network_error'), startedAt, attempt, observe);
      // A body over the cap would be as large next time; an abort is final; everything else here is transient.
      if (cut || error instanceof ApiResponseTooLargeError) throw error;
      return { kind: 'retry', error: error as ApiError };
    } finally {
      stop?.dispose();
      this.#window.answered(seq, answerHeaders);
      this.#warnIfPlanAboveServer();
    }
    this.#report(ctx, response.status, startedAt, attempt, observe);
    const { status: code, text } = response;
    if (code >= 200 && code < 300) {
      this.#headerless429Streak = 0;
      return { kind: 'ok', body: parseJson(text, ctx) };
    }
    const { detail, param } = readErrorBody(text, this.options.apiKey);
    const request = ctx;
    if (code === 429) {
      return { kind: 'rateLimited', error: new ApiRateLimitedError('Rate limited (429)', detail, waitMs, { request }) };
    }
    if (code === 401 || code === 403) {
      const error = new ApiKeyRejectedError(`The API key was rejected (${code})`, code, detail, { request });
      this.#fail(error);
      throw error;
    }
    if (code >= 500) {
      const of = this.options.maxAttempts;
      return {
        kind: 'retry',
        error: new ApiServerError(`Server error ${code} (attempt ${attempt}, ${of} allowed)`, code, detail, { request }),
      };
    }
    if (code === 404) throw new ApiNotFoundError('Not found (404)', code, detail, { request });
    if (code === 400) throw new ApiBadRequestError('Bad request (400)', code, detail, { request, param });
    throw new ApiUnexpectedStatusError(`Unexpected status ${code}`, code, detail, { request });
  }

  /** Waits until the server's window has room for one more send and reserves it; a stop or the call's abort ends the wait. */
  async #reserveInWindow(scope: AbortSignal | undefined): Promise<number> {
    const stop = scope ? linkSignals([this.#scheduling.signal, scope]) : undefined;
    try {
      return await this.#window.reserve(stop?.signal ?? this.#scheduling.signal);
    } catch (error) {
      throw this.#stopReason ?? (scope?.aborted ? scope.reason : error);
    } finally {
      stop?.dispose();
    }
  }

  #planRpm(): number {
    const { requests, windowMs } = this.options.rateLimit;
    return (requests * 60_000) / windowMs;
  }

  /** Once per client: the plan allows more than the server grants, so the server's window paces the sends. */
  #warnIfPlanAboveServer(): void {
    if (this.#planWarned) return;
    const server = this.#window.snapshot();
    const warning = planAboveServer(this.#planRpm(), server);
    if (warning === null) return;
    this.#planWarned = true;
    this.options.logger?.warn(
      { planRequestsPerMinute: this.#planRpm(), serverRequests: server!.requests, serverWindowSec: server!.windowSec },
      warning,
    );
  }

  /** Closes the gate for as long as the 429 says (or the default); returns the wait in ms. */
  #pauseFor429(headers: IncomingHttpHeaders, request: ApiRequestContext): number {
    let waitMs = rateLimitWaitMs(headers, Date.now());
    if (waitMs === undefined) {
      const { initialMs, capMs } = this.options.defaultRateLimitPause;
      // The answers to requests already in flight when a pause began belong to that pause: only a
      // 429 after it has ended doubles the next one, or one burst would reach the cap at once.
      const during = this.#gate.isClosed() && this.#headerless429Streak > 0;
      waitMs = Math.min(capMs, initialMs * 2 ** (during ? this.#headerless429Streak - 1 : this.#headerless429Streak));
      if (!during) this.#headerless429Streak += 1;
    }
    if (waitMs > this.options.maxRateLimitWaitMs) {
      this.#fail(
        new ApiRateLimitedError(
          `Rate limited for ${waitMs} ms, longer than the ${this.options.maxRateLimitWaitMs} ms allowed`,
          undefined,
          waitMs,
          {
            request,
          },
        ),
      );
      return waitMs;
    }
    this.#gate.closeFor(waitMs);
    this.options.logger?.warn(
      { endpoint: request.endpoint, target: request.target, waitMs, pausedUntilMs: this.#gate.closedUntilMs },
      'rate limited (429): pausing every request',
    );
    return waitMs;
  }

  #report(
    ctx: ApiRequestContext,
    status: RequestEvent['status'],
    startedAt: number,
    attempt: number,
    observe: ((event: RequestEvent) => void) | undefined,
  ): void {
    const event: RequestEvent = {
      endpoint: ctx.endpoint,
      method: ctx.method,
      status,
      durationMs: Math.round(performance.now() - startedAt),
      attempt,
    };
    this.#stats.record(event);
    this.options.logger?.debug({ ...event, target: ctx.target }, 'API request');
    try {
      this.options.onRequest?.(event);
      observe?.(event);
    } catch (error) {
      this.options.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'onRequest hook threw');
    }
  }

  /** Fatal: nothing more is sent; queued, sleeping, in-flight and later calls all reject with `error`. */
  #fail(error: Error): void {
    if (this.#stopReason) return;
    this.#stop(error);
    this.#state = 'failed';
    this.#inFlight.abort(error);
    this.options.logger?.warn({ err: error.message }, 'API client stopped');
  }

  #stop(reason: Error): void {
    if (this.#stopReason) return;
    this.#stopReason = reason;
    this.#state = 'closed';
    this.#gate.dispose();
    this.#queue.pause();
    for (const controller of [...this.#queued]) controller.abort(reason);
    this.#scheduling.abort(reason);
  }

  async #sleep(ms: number, scope: AbortSignal | undefined): Promise<void> {
    const stop = scope ? linkSignals([this.#scheduling.signal, scope]) : undefined;
    try {
      await sleep(ms, undefined, { signal: stop?.signal ?? this.#scheduling.signal });
    } catch (error) {
      throw this.#stopReason ?? (scope?.aborted ? scope.reason : error);
    } finally {
      stop?.dispose();
    }
  }
}

function parseJson(text: string, request: ApiRequestContext): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiInvalidJsonError('Response body is not JSON', { request, cause: error });
  }
}
