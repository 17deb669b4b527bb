// Mounts Ant Design's notification API inside the theme and hands it to lib/notifier: toasts top right, 3,500 ms.
import { useEffect } from 'react';
import notification from 'antd/es/notification';
import { setToastSink, TOAST_MS } from '../../lib/notifier';

export function NotifierHost() {
  const [api, holder] = notification.useNotification({ placement: 'topRight', duration: TOAST_MS / 1000, maxCount: 5, stack: false });
  useEffect(() => {
    setToastSink((t) =>
      api[t.kind]({
        title: t.text,
        ...(t.key ? { key: t.key } : {}),
        ...(t.durationMs ? { duration: t.durationMs / 1000 } : {}),
        role: t.kind === 'error' ? 'alert' : 'status',
      }),
    );
    return () => setToastSink(null);
  }, [api]);
  return holder;
}
