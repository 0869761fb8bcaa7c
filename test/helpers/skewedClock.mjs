// Preloaded with `node --import` (NODE_OPTIONS): moves this process's wall clock (Date) by
// CLOCK_SKEW_MS, as a host whose clock is wrong would; the monotonic clock stays as it is.
const skewMs = Number(process.env.CLOCK_SKEW_MS ?? 0);
const RealDate = Date;
class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + skewMs);
    else super(...args);
  }
  static now() {
    return RealDate.now() + skewMs;
  }
}
globalThis.Date = SkewedDate;
