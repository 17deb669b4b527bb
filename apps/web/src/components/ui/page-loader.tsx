// The loading state of a page or a frame while its chunk or its data arrives.
import Spin from 'antd/es/spin';

export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: 240, height: '100%' }} role="status" aria-live="polite">
      <Spin size="large" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
