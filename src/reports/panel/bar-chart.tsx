/**
 * A bar chart drawn on the server as SVG: no script, no library, printable, and the same figures
 * sit in the table below it (the chart is decoration for sighted readers: `aria-hidden`, with the
 * table as the accessible form). Two shapes: columns along time (a series per figure, side by
 * side), and one bar per row for categories (staffers, sources), the label above its bar so long
 * names keep their room on a phone.
 */

export interface ChartSeries {
  name: string;
  values: number[];
}

export interface BarChartProps {
  labels: string[];
  series: ChartSeries[];
  /** How an axis or bar value reads (money, a percentage, a count). */
  format: (value: number) => string;
  shape: 'columns' | 'bars';
}

const WIDTH = 480;
const SERIES_CLASSES = ['chart-a', 'chart-b', 'chart-c'];

export function BarChart(props: BarChartProps) {
  return props.shape === 'columns' ? <Columns {...props} /> : <Bars {...props} />;
}

function Legend({ series }: { series: ChartSeries[] }) {
  if (series.length < 2) return null;
  return (
    <p class="chart-legend" aria-hidden="true">
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

function Columns({ labels, series, format }: BarChartProps) {
  const height = 200;
  const top = 10;
  const left = 64;
  const bottom = 22;
  const plotHeight = height - top - bottom;
  const plotWidth = WIDTH - left - 4;
  const ceiling = niceCeiling(Math.max(0, ...series.flatMap((s) => s.values)));
  const slot = plotWidth / Math.max(labels.length, 1);
  const barWidth = Math.max((slot * 0.8) / series.length, 0.5);
  // Few enough labels along the axis to stay apart: about one per 60 units.
  const every = Math.max(1, Math.ceil(labels.length / Math.floor(plotWidth / 60)));
  const y = (value: number) => top + plotHeight - (value / ceiling) * plotHeight;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} aria-hidden="true" focusable="false">
        {[0, 0.25, 0.5, 0.75, 1].map((share) => (
          <g class="chart-grid">
            <line x1={left} x2={WIDTH - 4} y1={y(ceiling * share)} y2={y(ceiling * share)} />
            <text x={left - 6} y={y(ceiling * share) + 4} text-anchor="end">
              {format(ceiling * share)}
            </text>
          </g>
        ))}
        {labels.map((label, i) => (
          <g>
            {series.map((s, j) => {
              const value = s.values[i] ?? 0;
              return (
                <rect
                  class={SERIES_CLASSES[j]}
                  x={left + i * slot + slot * 0.1 + j * barWidth}
                  y={y(value)}
                  width={barWidth}
                  height={Math.max(y(0) - y(value), 0)}
                />
              );
            })}
            {i % every === 0 && (
              <text class="chart-label" x={left + i * slot + slot / 2} y={height - 6} text-anchor="middle">
                {label}
              </text>
            )}
          </g>
        ))}
      </svg>
      <Legend series={series} />
    </figure>
  );
}

function Bars({ labels, series, format }: BarChartProps) {
  const rowHeight = 34;
  const height = labels.length * rowHeight + 4;
  const ceiling = niceCeiling(Math.max(0, ...series.flatMap((s) => s.values)));
  const values = series[0]?.values ?? [];
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} aria-hidden="true" focusable="false">
        {labels.map((label, i) => {
          const value = values[i] ?? 0;
          const width = Math.max(((WIDTH - 80) * value) / ceiling, value > 0 ? 1 : 0);
          return (
            <g>
              <text class="chart-label" x={0} y={i * rowHeight + 12}>
                {label}
              </text>
              <rect class={SERIES_CLASSES[0]} x={0} y={i * rowHeight + 16} width={width} height={12} />
              <text x={width + 6} y={i * rowHeight + 27}>
                {format(value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
