// Metric series kept in plain Maps: recording an event costs no library, and prom-client (~19 ms
// and ~12 MiB to load) is imported only when /metrics is first scraped. Each series hands
// prom-client what its own metrics' get() returns (name, help, type, values), so the exposition
// text is still written by the library, byte for byte as its Counter, Gauge and Histogram write it.

type Labels = Readonly<Record<string, string | number>>;

/** One value as prom-client's Registry formats it. */
export interface SeriesValue {
  readonly labels: Labels;
  readonly sharedLabels?: Labels;
  readonly value: number;
  readonly metricName?: string;
}

/** What Registry.registerMetric needs from a metric. */
export interface ExposedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge" | "histogram";
  readonly aggregator: "sum";
  get(): { name: string; help: string; type: string; values: SeriesValue[]; aggregator: "sum" };
}

/** prom-client's key for a label set: the names in sorted order with their values. */
function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((name) => `${name}:${labels[name]}`)
    .join(",");
}

abstract class Series implements ExposedMetric {
  readonly aggregator = "sum" as const;
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge" | "histogram",
  ) {}

  get(): { name: string; help: string; type: string; values: SeriesValue[]; aggregator: "sum" } {
    return { name: this.name, help: this.help, type: this.type, values: this.values(), aggregator: this.aggregator };
  }

  protected abstract values(): SeriesValue[];
}

/** A counter with labels; a label set appears once it was first incremented (as in prom-client). */
export class LabeledCounter extends Series {
  private readonly counts = new Map<string, { labels: Labels; value: number }>();

  constructor(name: string, help: string) {
    super(name, help, "counter");
  }

  inc(labels: Labels, by = 1): void {
    const key = labelKey(labels);
    const entry = this.counts.get(key);
    if (entry) entry.value += by;
    else this.counts.set(key, { labels: { ...labels }, value: by });
  }

  protected values(): SeriesValue[] {
    return [...this.counts.values()].map(({ labels, value }) => ({ labels, value }));
  }
}

/** A value read from its owner at scrape time (a counter or a gauge without labels). */
export class SampledValue extends Series {
  constructor(
    name: string,
    help: string,
    type: "counter" | "gauge",
    private readonly read: () => number,
  ) {
    super(name, help, type);
  }

  protected values(): SeriesValue[] {
    return [{ labels: {}, value: this.read() }];
  }
}

/** Values with labels read from their owner at scrape time (one per export target, say). */
export class SampledLabeled extends Series {
  constructor(
    name: string,
    help: string,
    type: "counter" | "gauge",
    private readonly read: () => readonly { readonly labels: Labels; readonly value: number }[],
  ) {
    super(name, help, type);
  }

  protected values(): SeriesValue[] {
    return this.read().map(({ labels, value }) => ({ labels, value }));
  }
}

/** A histogram with labels: per label set, counts per bucket (upper bound), sum and count. */
export class LabeledHistogram extends Series {
  private readonly series = new Map<string, { labels: Labels; buckets: number[]; sum: number; count: number }>();

  constructor(
    name: string,
    help: string,
    private readonly upperBounds: readonly number[],
  ) {
    super(name, help, "histogram");
  }

  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels: { ...labels }, buckets: this.upperBounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    entry.sum += value;
    entry.count += 1;
    const bucket = this.upperBounds.findIndex((bound) => value <= bound);
    if (bucket >= 0) entry.buckets[bucket] = (entry.buckets[bucket] ?? 0) + 1;
  }

  /** prom-client's order: cumulative buckets (le first, then the series' labels), +Inf, _sum, _count. */
  protected values(): SeriesValue[] {
    const values: SeriesValue[] = [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += buckets[index] ?? 0;
        values.push({ labels: { le: bound }, sharedLabels: labels, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: "+Inf" }, sharedLabels: labels, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
    }
    return values;
  }
}
