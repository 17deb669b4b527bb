// The one chart wrapper of the console: Chart.js (canvas) with only the pieces the console uses registered, so the
// library tree-shakes; loaded lazily with the pages that draw charts (lazy-chart.tsx), never on the sign-in route.
// Line/bar charts get at most 8 y-ticks (docs/requirements.md §9). ISO period labels ("2026-03", "2026-11-27") are shown as month and
// day names (period-label.ts), on the axis and in the tooltips.
import { useEffect, useRef } from 'react';
import { periodLabel } from './period-label';
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { formatLocale } from '../../i18n/locale';

Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

export type ChartProps = {
  config: ChartConfiguration;
  height?: number;
  ariaLabel: string;
  testId?: string;
};

/** At most this many ticks on a value axis. */
export const MAX_Y_TICKS = 8;

export function ChartView({ config, height = 260, ariaLabel, testId }: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const named = {
      ...config,
      data: { ...config.data, labels: config.data.labels?.map((l) => (typeof l === 'string' ? periodLabel(l) : l)) },
    } as ChartConfiguration;
    const withTicks: ChartConfiguration =
      named.type === 'doughnut' || named.type === 'pie'
        ? named
        : {
            ...named,
            options: {
              ...named.options,
              scales: {
                ...(named.options?.scales ?? {}),
                y: { beginAtZero: true, ...(named.options?.scales?.['y'] ?? {}), ticks: { maxTicksLimit: MAX_Y_TICKS, precision: 0 } },
              },
            },
          };
    if (chart.current) {
      chart.current.data = withTicks.data;
      chart.current.options = withTicks.options ?? {};
      chart.current.update();
    } else {
      chart.current = new Chart(canvas.current, {
        ...withTicks,
        options: { responsive: true, maintainAspectRatio: false, animation: false, locale: formatLocale(), ...withTicks.options },
      });
    }
  }, [config]);

  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );

  return (
    <div className="chart-box" style={{ height }} data-testid={testId}>
      <canvas ref={canvas} role="img" aria-label={ariaLabel} />
    </div>
  );
}
