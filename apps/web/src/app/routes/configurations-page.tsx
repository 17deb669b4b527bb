// /admin/configurations: the tenant's configuration, under the page's level-one heading (the card's title shows it),
// and the tenant's webhooks (an addition to the spec's screen: docs/decisions/0075-webhooks.md).
import Flex from 'antd/es/flex';
import { ConfigurationsForm } from '../../features/configurations/components/configurations-form';
import { WebhooksSection } from '../../features/configurations/components/webhooks-section';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';

export function ConfigurationsPage() {
  return (
    <>
      <h1 className="visually-hidden">{t(m.configurations)}</h1>
      <Flex vertical gap="large">
        <ConfigurationsForm />
        <WebhooksSection />
      </Flex>
    </>
  );
}
