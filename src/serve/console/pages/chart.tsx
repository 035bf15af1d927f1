/** @jsxImportSource hono/jsx */
import { noun } from "../../../core/text/plural.ts";

export interface ChartPoint {
  /** Start of the minute, ms since the epoch. */
  readonly at: number;
  /** Undefined: nothing to measure in that minute (drawn as a gap, not as zero). */
  readonly value: number | undefined;
}

const WIDTH = 600;
const HEIGHT = 100;
/** Room above the tallest bar for the scale's label (HTML, over the chart). */
const HEADROOM = 20;

/**
 * A bar per minute, drawn on the server as SVG: no script, no external request, readable by a
 * screen reader (its title and description say what it shows and the latest value) and each bar
 * has its own tooltip. The SVG stretches to its box, so its labels are HTML around it: text
 * inside would be stretched and shrunk with it (to ~6 px in a narrow column).
 */
export function MinuteChart(props: { id: string; title: string; unit: string; units?: string; points: readonly ChartPoint[]; decimals?: number }) {
  const values = props.points.map((p) => p.value).filter((v): v is number => v !== undefined);
  const max = Math.max(1, ...values);
  const slot = WIDTH / Math.max(1, props.points.length);
  const plot = HEIGHT - HEADROOM;
  const shown = (value: number) => value.toFixed(props.decimals ?? 0);
  const amount = (value: number) => `${shown(value)} ${noun(Number(shown(value)), props.unit, props.units)}`;
  const latest = props.points.at(-1)?.value;
  const total = values.reduce((sum, v) => sum + v, 0);
  return (
    <figure class="chart">
      <div class="plot">
        <span class="scale" aria-hidden="true">
          {amount(max)}
        </span>
        <svg
          id={props.id}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${props.id}-title ${props.id}-desc`}
          preserveAspectRatio="none"
        >
          <title id={`${props.id}-title`}>{props.title}</title>
          <desc
            id={`${props.id}-desc`}
          >{`Per minute over the last ${props.points.length} minutes; highest ${amount(max)}; this minute ${latest === undefined ? "none" : amount(latest)}.`}</desc>
          <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} class="axis" />
          {props.points.map((point, index) =>
            point.value === undefined ? null : (
              <rect
                x={(index * slot + 1).toFixed(1)}
                y={(HEIGHT - (point.value / max) * plot).toFixed(1)}
                width={Math.max(1, slot - 2).toFixed(1)}
                height={((point.value / max) * plot).toFixed(1)}
                class="bar"
              >
                <title>{`${new Date(point.at).toLocaleTimeString("en-GB", { hour12: false, hour: "2-digit", minute: "2-digit" })}: ${amount(point.value)}`}</title>
              </rect>
            ),
          )}
        </svg>
        <div class="ticks" aria-hidden="true">
          <span>−{props.points.length} min</span>
          <span>now</span>
        </div>
      </div>
      <figcaption>
        <strong>{props.title}</strong> — this minute: {latest === undefined ? "—" : amount(latest)}; last hour:{" "}
        {props.unit === "ms" ? `highest ${shown(max)} ms` : `${amount(total)} in all`}
      </figcaption>
    </figure>
  );
}
