import type { Market, RecordShape, Rejection } from '../domain/types.js';
import { lostMarketFields } from '../normalize/driftTags.js';
import type { EndpointRecordCounts } from '../sql/core/ingestRuns.js';
import type { QuarantinedRecord } from '../sql/writes/quarantineRecords.js';
import type { ShapeObservation } from '../sql/writes/recordShapes.js';
import { reasonKind } from '../wire/issues.js';
import type { WriteCounts } from './writeCounts.js';

/**
 * What a batch received, per endpoint label: records accepted as they are, accepted with drift,
 * and rejected; the shapes they came in; and why records were rejected. This is what makes drift
 * visible (upstream_shapes, ingest_runs.records_by_endpoint) and what decides a degraded run.
 * Drift is measured against today's contract (the shape's `changes`, wire/liveContract.ts): a
 * record as the service sends it today is accepted without drift, whatever the spec said.
 */
export class RecordTally {
  readonly byEndpoint: Record<string, EndpointRecordCounts> = {};
  /** Rejections by the kind of reason (reasonKind), for the message of a degraded run. */
  readonly reasons: Record<string, number> = {};
  /** The rejected records, for the quarantine. */
  readonly quarantined: QuarantinedRecord[] = [];
  /** Markets stored with a needed field (status, result, times) nulled by an unreadable value. */
  recordsEmptied = 0;
  /** The needed fields so lost, by name: what a degraded run names. */
  readonly emptiedFields: Record<string, number> = {};
  /** Per endpoint, per fingerprint: a nested map costs no key string per record. */
  readonly #shapes = new Map<string, Map<string, ShapeObservation>>();

  accepted(endpoint: string, record: { shape: RecordShape }): void {
    const counts = this.#counts(endpoint);
    if (record.shape.changes.length > 0) counts.acceptedWithDrift += 1;
    else counts.accepted += 1;
    this.#shape(endpoint, record.shape);
  }

  /** A market, and its pricing under `<endpoint>.pricing` when that was quarantined. */
  acceptedMarket(endpoint: string, market: Market): void {
    this.accepted(endpoint, market);
    const lost = lostMarketFields(market);
    if (lost.length > 0) {
      this.recordsEmptied += 1;
      for (const field of lost) this.emptiedFields[field] = (this.emptiedFields[field] ?? 0) + 1;
    }
    if (market.pricingRejection) this.rejected(`${endpoint}.pricing`, market.pricingRejection);
  }

  rejected(endpoint: string, rejection: Rejection): void {
    this.quarantined.push({ ...rejection, endpoint });
    this.#counts(endpoint).rejected += 1;
    const kind = reasonKind(rejection.reason);
    this.reasons[kind] = (this.reasons[kind] ?? 0) + 1;
    this.#shape(endpoint, rejection.shape);
  }

  /** The part of a batch's WriteCounts that the tally knows. */
  counts(): Pick<WriteCounts, 'recordsRejected' | 'recordsByEndpoint' | 'rejectionReasons' | 'recordsEmptied' | 'emptiedFields'> {
    return {
      recordsRejected: this.quarantined.length,
      recordsByEndpoint: this.byEndpoint,
      rejectionReasons: this.reasons,
      recordsEmptied: this.recordsEmptied,
      emptiedFields: this.emptiedFields,
    };
  }

  get shapes(): ShapeObservation[] {
    return [...this.#shapes.values()].flatMap((byFingerprint) => [...byFingerprint.values()]);
  }

  #counts(endpoint: string): EndpointRecordCounts {
    return (this.byEndpoint[endpoint] ??= { accepted: 0, acceptedWithDrift: 0, rejected: 0 });
  }

  #shape(endpoint: string, shape: RecordShape): void {
    let byFingerprint = this.#shapes.get(endpoint);
    if (!byFingerprint) this.#shapes.set(endpoint, (byFingerprint = new Map()));
    const known = byFingerprint.get(shape.fingerprint);
    if (known) known.count += 1;
    else
      byFingerprint.set(shape.fingerprint, {
        endpoint,
        fingerprint: shape.fingerprint,
        paths: shape.paths,
        example: shape.example,
        changes: shape.changes,
        count: 1,
      });
  }
}
