// The agent detail drawer (row click): profile, farmers, mapped farms, area mapped, progress and the ten latest captures.
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import List from 'antd/es/list';
import Result from 'antd/es/result';
import Statistic from 'antd/es/statistic';
import Typography from 'antd/es/typography';
import { UserOutlined } from '@ant-design/icons';
import { PageLoader } from '../../../components/ui/page-loader';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { AgentProgressBar } from '../../../components/ui/agent-progress';
import { StatusTag } from '../../../components/ui/status-tag';
import { formatDate, formatDateTime, formatNumber, formatSqm } from '../../../lib/formatters';
import { useAgent } from '../api/get-agent';
import { t } from '../../../i18n';
import { agentsText as m } from '../agents.messages';
import { genderLabel } from './agent-wizard';

export function AgentDrawer({ agentId, onClose }: { agentId: string | null; onClose: () => void }) {
  const query = useAgent(agentId);
  const agent = query.data?.data;
  return (
    <SideDrawer open={Boolean(agentId)} title={t(m.details)} onClose={onClose} width={520}>
      {query.isLoading && <PageLoader label={t(m.loading)} />}
      {query.isError && <Result status="warning" title={t(m.loadFailed)} extra={<Button onClick={() => void query.refetch()}>{t(m.tryAgain)}</Button>} />}
      {agent && (
        <div data-testid="agent-drawer">
          <div className="inline gap-16 mb-16">
            <Avatar size={64} src={agent.image ?? undefined} icon={<UserOutlined />} alt="" />
            <div>
              <Typography.Title level={2} className="section-title">
                {agent.agent_name}
              </Typography.Title>
              <div className="mt-4">
                <StatusTag tone={agent.is_suspended ? 'bad' : 'good'} testId="agent-status">
                  {agent.is_suspended ? t(m.suspended) : t(m.active)}
                </StatusTag>
              </div>
            </div>
          </div>
          <div className="stat-row mb-16">
            <Statistic title={t(m.farmers)} value={agent.farmers_count} formatter={(v) => formatNumber(Number(v))} />
            <Statistic title={t(m.mappedFarms)} value={agent.mapped_farms_count} formatter={(v) => formatNumber(Number(v))} />
            <Statistic title={t(m.areaMapped)} value={agent.total_mapped_area} formatter={(v) => formatSqm(Number(v))} />
          </div>
          <div className="mb-16">
            <div className="mb-4">{t(m.progressExplained)}</div>
            <AgentProgressBar progress={agent.progress} mapped={agent.mapped_farms_count} farmers={agent.farmers_count} />
          </div>
          <Descriptions
            column={1}
            size="small"
            bordered
            items={[
              { key: 'email', label: t(m.email), children: agent.email },
              { key: 'phone', label: t(m.phone), children: agent.phone_number ?? '--' },
              { key: 'gender', label: t(m.gender), children: genderLabel(agent.gender) },
              { key: 'area', label: t(m.operationalArea), children: agent.operational_area ?? '--' },
              { key: 'region', label: t(m.region), children: agent.region ?? '--' },
              { key: 'login', label: t(m.lastSignIn), children: agent.last_login_at ? formatDateTime(agent.last_login_at) : t(m.never) },
              { key: 'created', label: t(m.added), children: formatDate(agent.created_at) },
            ]}
          />
          <Typography.Title level={3} className="subheading mt-20">
            {t(m.recentCaptures)}
          </Typography.Title>
          <List
            size="small"
            bordered
            dataSource={agent.recent_captures}
            locale={{ emptyText: t(m.noCaptures) }}
            renderItem={(c) => (
              <List.Item>
                <List.Item.Meta
                  title={
                    <span>
                      {c.farm_name} {c.is_overlapping && <StatusTag tone="neutral">{t(m.overlap)}</StatusTag>}
                    </span>
                  }
                  description={`${c.farmer_name} · ${formatSqm(c.area)} · ${c.operational_area ?? t(m.noOperationalArea)} · ${formatDateTime(c.mapped_at)}`}
                />
              </List.Item>
            )}
          />
        </div>
      )}
    </SideDrawer>
  );
}
