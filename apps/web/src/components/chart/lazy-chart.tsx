// The chart as a lazy chunk: Chart.js loads only when a page shows a chart.
import { lazy, Suspense } from 'react';
import Skeleton from 'antd/es/skeleton';
import type { ChartProps } from './chart';

const ChartChunk = lazy(async () => ({ default: (await import('./chart')).ChartView }));

export function LazyChart(props: ChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active classNames={{ content: 'chart-skeleton' }} style={{ height: props.height ?? 260 }} />}>
      <ChartChunk {...props} />
    </Suspense>
  );
}
