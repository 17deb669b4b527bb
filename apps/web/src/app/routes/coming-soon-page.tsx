// A screen whose feature arrives in a later issue: a plain, honest placeholder instead of a broken page.
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Typography from 'antd/es/typography';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

export function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <Typography.Title level={1} className="page-heading">
        {title}
      </Typography.Title>
      <Card>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span>{t(m.comingSoon)}</span>} />
      </Card>
    </>
  );
}
