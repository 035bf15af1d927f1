/** @jsxImportSource hono/jsx */

export interface ChartPoint {
  /** Start of the minute, ms since the epoch. */
  readonly at: number;
  /** Undefined: nothing to measure in that minute (drawn as a gap, not as zero). */
  readonly value: number | undefined;
}

const WIDTH = 600;
const HEIGHT = 120;
const AXIS = 18;

/**
 * A bar per minute, drawn on the server as SVG: no script, no external request, readable by a
 * screen reader (its title and description say what it shows and the latest value) and each bar
 * has its own tooltip.
 */
export function MinuteChart(props: { id: string; title: string; unit: string; points: readonly ChartPoint[]; decimals?: number }) {
  const values = props.points.map((p) => p.value).filter((v): v is number => v !== undefined);
  const max = Math.max(1, ...values);
  const slot = WIDTH / Math.max(1, props.points.length);
  const plot = HEIGHT - AXIS;
  const shown = (value: number) => value.toFixed(props.decimals ?? 0);
  const latest = props.points.at(-1)?.value;
  const total = values.reduce((sum, v) => sum + v, 0);
  return (
    <figure class="chart">
      <svg id={props.id} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${props.id}-title ${props.id}-desc`} preserveAspectRatio="none">
        <title id={`${props.id}-title`}>{props.title}</title>
        <desc id={`${props.id}-desc`}>
          {`Per minute over the last ${props.points.length} minutes; highest ${shown(max)} ${props.unit}; this minute ${latest === undefined ? "none" : `${shown(latest)} ${props.unit}`}.`}
        </desc>
        <line x1="0" y1={plot} x2={WIDTH} y2={plot} class="axis" />
        {props.points.map((point, index) =>
          point.value === undefined ? null : (
            <rect x={(index * slot + 1).toFixed(1)} y={(plot - (point.value / max) * plot).toFixed(1)} width={Math.max(1, slot - 2).toFixed(1)} height={((point.value / max) * plot).toFixed(1)} class="bar">
              <title>{`${new Date(point.at).toLocaleTimeString("en-GB", { hour12: false, hour: "2-digit", minute: "2-digit" })}: ${shown(point.value)} ${props.unit}`}</title>
            </rect>
          ),
        )}
        <text x="0" y={HEIGHT - 4} class="label">
          −{props.points.length} min
        </text>
        <text x={WIDTH} y={HEIGHT - 4} class="label end">
          now
        </text>
        <text x="2" y="10" class="label">
          {shown(max)} {props.unit}
        </text>
      </svg>
      <figcaption>
        <strong>{props.title}</strong> — this minute: {latest === undefined ? "—" : `${shown(latest)} ${props.unit}`}; last hour: {props.unit === "ms" ? `highest ${shown(max)} ms` : `${shown(total)} in all`}
      </figcaption>
    </figure>
  );
}
