import { afterEach, describe, expect, it } from 'vitest';

import { createMetrics } from '../../src/ops/metrics.js';
import { type OpsServer, startOpsServer } from '../../src/ops/startOpsServer.js';
import { sample, samplesOf } from './promText.js';

const ready = async () => ({ ready: true, checks: {} });
let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function scrape(metrics: ReturnType<typeof createMetrics>): Promise<{ type: string | null; text: string }> {
  server ??= await startOpsServer({ port: 0, metrics, readiness: ready });
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  return { type: res.headers.get('content-type'), text: await res.text() };
}

describe('metrics over /metrics', () => {
  it('counts API attempts by endpoint and status, their durations and the 429s', async () => {
    const metrics = createMetrics();
    metrics.observeRequest({ endpoint: '/events', method: 'GET', status: 200, durationMs: 120, attempt: 1 });
    metrics.observeRequest({ endpoint: '/events', method: 'GET', status: 200, durationMs: 80, attempt: 1 });
    metrics.observeRequest({ endpoint: '/events', method: 'GET', status: 429, durationMs: 10, attempt: 1 });
    metrics.observeRequest({ endpoint: '/markets/{marketId}', method: 'GET', status: 'network_error', durationMs: 3000, attempt: 2 });

    const { type, text } = await scrape(metrics);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(samplesOf(text, 'prediction_api_requests_total')).toEqual({
      '{endpoint="/events",status="200"}': 2,
      '{endpoint="/events",status="429"}': 1,
      '{endpoint="/markets/{marketId}",status="network_error"}': 1,
    });
    expect(sample(text, 'prediction_api_rate_limited_total')).toBe(1);
    expect(sample(text, 'prediction_api_request_duration_seconds_count{endpoint="/events"}')).toBe(3);
    expect(sample(text, 'prediction_api_request_duration_seconds_sum{endpoint="/events"}')).toBeCloseTo(0.21);
    expect(sample(text, 'prediction_api_request_duration_seconds_bucket{le="0.1",endpoint="/events"}')).toBe(2);
  });

  it('reads the queue depth at scrape time', async () => {
    let queue = { size: 5, pending: 2 };
    const metrics = createMetrics({ queueDepth: () => queue });
    let { text } = await scrape(metrics);
    expect(sample(text, 'prediction_api_queue_depth{state="waiting"}')).toBe(5);
    expect(sample(text, 'prediction_api_queue_depth{state="in_flight"}')).toBe(2);
    queue = { size: 0, pending: 1 };
    ({ text } = await scrape(metrics));
    expect(sample(text, 'prediction_api_queue_depth{state="waiting"}')).toBe(0);
    expect(sample(text, 'prediction_api_queue_depth{state="in_flight"}')).toBe(1);
  });

  it('shows the gateway’s window beside the configured plan, from the first answer that carried it', async () => {
    let server: { requests: number; windowSec: number | null; requestsPerMinute: number | null; remaining: number } | null = null;
    const metrics = createMetrics({ rateWindows: () => ({ planRequestsPerMinute: 6000, serverWindow: server }) });
    let { text } = await scrape(metrics);
    expect(sample(text, 'prediction_api_plan_requests_per_minute')).toBe(6000);
    expect(text).not.toContain('prediction_api_server_window{');
    server = { requests: 5, windowSec: 4, requestsPerMinute: 75, remaining: 2 };
    ({ text } = await scrape(metrics));
    expect(samplesOf(text, 'prediction_api_server_window')).toEqual({
      '{field="requests"}': 5,
      '{field="seconds"}': 4,
      '{field="requests_per_minute"}': 75,
      '{field="remaining"}': 2,
    });
  });

  it('counts rows written by table and job runs by status', async () => {
    const metrics = createMetrics();
    metrics.recordRows('markets', 40);
    metrics.recordRows('markets', 2);
    metrics.recordRows('orderbook_levels', 0);
    metrics.recordJobRun('sync', 'succeeded', 90_000);
    metrics.recordJobRun('sync', 'failed', 1_500);
    metrics.recordJobRun('books', 'aborted', 500);
    expect(() => metrics.recordRows('markets', -1)).toThrow(RangeError);

    const { text } = await scrape(metrics);
    expect(sample(text, 'prediction_job_duration_seconds_count{job="sync"}')).toBe(2);
    expect(sample(text, 'prediction_job_duration_seconds_sum{job="sync"}')).toBe(91.5);
    expect(samplesOf(text, 'prediction_rows_written_total')).toEqual({ '{table="markets"}': 42, '{table="orderbook_levels"}': 0 });
    expect(samplesOf(text, 'prediction_job_runs_total')).toEqual({
      '{job="sync",status="succeeded"}': 1,
      '{job="sync",status="failed"}': 1,
      '{job="books",status="aborted"}': 1,
    });
  });

  it('exposes the last success and computes freshness at scrape time', async () => {
    let now = 1_700_000_000_000;
    const metrics = createMetrics({ now: () => now });
    metrics.markJobSuccess('sync', now - 30_000);
    metrics.markJobSuccess('sync', now - 60_000); // older: ignored
    expect(metrics.lastSuccess('sync')).toBe(now - 30_000);
    expect(metrics.lastSuccess('books')).toBeNull();

    let { text } = await scrape(metrics);
    expect(sample(text, 'prediction_job_last_success_timestamp_seconds{job="sync"}')).toBe((now - 30_000) / 1000);
    expect(sample(text, 'prediction_data_freshness_seconds{job="sync"}')).toBe(30);
    expect(text).not.toContain('prediction_data_freshness_seconds{job="books"}');

    now += 90_000;
    ({ text } = await scrape(metrics));
    expect(sample(text, 'prediction_data_freshness_seconds{job="sync"}')).toBe(120);
  });

  it('includes process metrics and declares every metric even before it has data', async () => {
    const { text } = await scrape(createMetrics());
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    for (const name of [
      'prediction_api_requests_total',
      'prediction_api_request_duration_seconds',
      'prediction_api_rate_limited_total',
      'prediction_api_queue_depth',
      'prediction_rows_written_total',
      'prediction_job_runs_total',
      'prediction_job_duration_seconds',
      'prediction_job_last_success_timestamp_seconds',
      'prediction_data_freshness_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('keeps each instance on its own registry', async () => {
    const a = createMetrics({ processMetrics: false });
    const b = createMetrics({ processMetrics: false });
    a.recordRows('events', 3);
    const { text } = await scrape(b);
    expect(sample(text, 'prediction_rows_written_total{table="events"}')).toBeUndefined();
    expect(text).not.toContain('process_cpu_seconds_total');
  });
});
