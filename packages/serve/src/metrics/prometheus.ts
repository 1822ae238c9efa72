/** Label values as the Prometheus text format escapes them: backslash, double quote, newline. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '' : `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`;
}

function numberText(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${name} ${type}\n`;
}

/** A counter per label set. */
export class Counter {
  private readonly values = new Map<string, { labels: Record<string, string>; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  add(labels: Record<string, string>, amount = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += amount;
    this.values.set(key, entry);
  }

  text(): string {
    const lines = [...this.values.values()].map((entry) => `${this.name}${labelText(entry.labels)} ${numberText(entry.value)}`);
    return header(this.name, this.help, 'counter') + lines.map((line) => `${line}\n`).join('');
  }
}

/** A value read when the metrics are scraped. */
export class Gauge {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number,
  ) {}

  text(): string {
    return `${header(this.name, this.help, 'gauge')}${this.name} ${numberText(this.read())}\n`;
  }
}

/** A histogram per label set, with cumulative `le` buckets, `_sum` and `_count`. */
export class Histogram {
  private readonly series = new Map<string, { labels: Record<string, string>; counts: number[]; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(labels: Record<string, string>, value: number): void {
    const key = labelText(labels);
    const entry = this.series.get(key) ?? { labels, counts: new Array<number>(this.bounds.length).fill(0), sum: 0, count: 0 };
    const bucket = this.bounds.findIndex((bound) => value <= bound);
    if (bucket >= 0) entry.counts[bucket]! += 1;
    entry.sum += value;
    entry.count += 1;
    this.series.set(key, entry);
  }

  text(): string {
    let text = header(this.name, this.help, 'histogram');
    for (const entry of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += entry.counts[index]!;
        text += `${this.name}_bucket${labelText({ ...entry.labels, le: numberText(bound) })} ${cumulative}\n`;
      });
      text += `${this.name}_bucket${labelText({ ...entry.labels, le: '+Inf' })} ${entry.count}\n`;
      text += `${this.name}_sum${labelText(entry.labels)} ${numberText(entry.sum)}\n`;
      text += `${this.name}_count${labelText(entry.labels)} ${entry.count}\n`;
    }
    return text;
  }
}
