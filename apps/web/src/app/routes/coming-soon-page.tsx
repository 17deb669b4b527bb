// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// A screen whose feature arrives in a later issue: a plain, honest placeholder instead of a broken page.
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Typography from 'antd/es/typography';

export function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 24 }}>
        {title}
      </Typography.Title>
      <Card>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span>This screen is coming soon.</span>} />
      </Card>
    </>
  );
}
