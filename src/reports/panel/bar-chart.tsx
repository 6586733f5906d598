/**
 * A bar chart drawn on the server as SVG: no script, no library, printable, and the same figures
 * sit in the table below it (the chart is for sighted readers: `aria-hidden`, the table is the
 * accessible form). The bars are SVG stretched to the width they get; every word and number
 * around them is HTML, so text keeps its size on a phone and on a wide screen alike. Two shapes:
 * columns along time (a series per figure, side by side), and one bar per row for categories
 * (staffers, sources), its label and value above it.
 */

export interface ChartSeries {
  name: string;
  values: number[];
}

export interface BarChartProps {
  labels: string[];
  series: ChartSeries[];
  /** How a value reads beside a bar (money, a percentage, a count). */
  format: (value: number) => string;
  /** How the value axis reads (shorter: whole units). */
  axis: (value: number) => string;
  shape: 'columns' | 'bars';
}

const SERIES_CLASSES = ['chart-a', 'chart-b', 'chart-c'];

export function BarChart(props: BarChartProps) {
  return props.shape === 'columns' ? <Columns {...props} /> : <Bars {...props} />;
}

function Legend({ series }: { series: ChartSeries[] }) {
  if (series.length < 2) return null;
  return (
    <p class="chart-legend">
      {series.map((s, i) => (
        <span>
          <i class={SERIES_CLASSES[i]} /> {s.name}
        </span>
      ))}
    </p>
  );
}

/** The ceiling of the value axis: a round number at or above the largest value. */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** The labels shown along the time axis: the first, the last and a few evenly between. */
export function axisLabelIndexes(count: number, most = 5): number[] {
  if (count <= most) return [...Array(count).keys()];
  const step = (count - 1) / (most - 1);
  return [...new Set([...Array(most).keys()].map((i) => Math.round(i * step)))];
}

function Columns({ labels, series, axis }: BarChartProps) {
  const ceiling = niceCeiling(Math.max(0, ...series.flatMap((s) => s.values)));
  // Units: each bucket is 10 wide, bars fill 8 of it; the value axis runs 0-100.
  const width = Math.max(labels.length, 1) * 10;
  const barWidth = 8 / series.length;
  return (
    <figure class="chart" aria-hidden="true">
      <div class="chart-plot">
        <div class="chart-axis">
          {[1, 0.5, 0].map((share) => (
            <span>{axis(ceiling * share)}</span>
          ))}
        </div>
        <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" focusable="false" aria-hidden="true">
          {[0, 25, 50, 75, 100].map((y) => (
            <line class="chart-grid" x1={0} x2={width} y1={y} y2={y} vector-effect="non-scaling-stroke" />
          ))}
          {labels.map((_, i) =>
            series.map((s, j) => {
              const height = ((s.values[i] ?? 0) / ceiling) * 100;
              return (
                <rect
                  class={SERIES_CLASSES[j]}
                  x={i * 10 + 1 + j * barWidth}
                  y={100 - height}
                  width={barWidth}
                  height={height}
                />
              );
            }),
          )}
        </svg>
        {/* Evenly spread labels, the first at the start and the last at the end: where their
            evenly spread buckets are (no inline positions: the panel's CSP allows no style attribute). */}
        <div class="chart-x">
          {axisLabelIndexes(labels.length).map((i) => (
            <span>{labels[i]}</span>
          ))}
        </div>
      </div>
      <Legend series={series} />
    </figure>
  );
}

function Bars({ labels, series, format }: BarChartProps) {
  const values = series[0]?.values ?? [];
  const ceiling = niceCeiling(Math.max(0, ...values));
  return (
    <figure class="chart" aria-hidden="true">
      <ul class="chart-bars">
        {labels.map((label, i) => {
          const value = values[i] ?? 0;
          return (
            <li>
              <span class="chart-bar-label">{label}</span>
              <span class="chart-bar-value">{format(value)}</span>
              <svg viewBox="0 0 100 10" preserveAspectRatio="none" focusable="false" aria-hidden="true">
                <rect class={SERIES_CLASSES[0]} x={0} y={0} width={(value / ceiling) * 100} height={10} />
              </svg>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
