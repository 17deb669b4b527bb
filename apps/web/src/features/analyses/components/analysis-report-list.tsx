// "Analysis Report": the tenant's past custom analyses (name, uploaded rows, total area in sqm and hectares, status,
// date) with a debounced search; per row View (the analysis page, like a row click) and Delete, and row selection whose
// delete icon deletes several; every delete asks for confirmation first (docs/requirements.md §2, §4, §8).
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { DeleteOutlined, EyeOutlined } from '@ant-design/icons';
import type { AnalysisStatus, AnalysisSummary } from '@farmland/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { useListState } from '../../../components/ui/use-list-state';
import { formatDate, formatHectares, formatNumber, formatSqm, formatTime } from '../../../lib/formatters';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteAnalyses } from '../api/delete-analysis';
import { ANALYSES_PAGE_SIZE, useAnalyses } from '../api/get-analyses';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { analysesText as m, analysisStatusText } from '../analyses.messages';

const STATUS_COLOR: Record<AnalysisStatus, string> = { queued: 'default', processing: 'processing', completed: 'success', failed: 'error' };

export function AnalysisReportList() {
  const state = useListState({ defaultPageSize: ANALYSES_PAGE_SIZE });
  const { search, page, pageSize } = state;
  const [pendingDelete, setPendingDelete] = useState<string[] | null>(null);
  const query = useAnalyses({ page, page_size: pageSize, search: search || undefined });
  const remove = useDeleteAnalyses();
  const navigate = useNavigate();

  const columns = useMemo<ListColumn<AnalysisSummary>[]>(
    () => [
      { key: 'name', title: t(m.colName), render: (r) => r.name },
      { key: 'total_uploaded_data_count', title: t(m.colUploadedRows), render: (r) => formatNumber(r.total_uploaded_data_count) },
      {
        key: 'total_area',
        title: t(m.colTotalArea),
        render: (r) => (
          <span className="nowrap">
            {formatSqm(r.total_area)} <span className="text-muted">({formatHectares(r.total_area)})</span>
          </span>
        ),
      },
      {
        key: 'status',
        title: t(m.colStatus),
        // Live: the list polls while an analysis is queued or processing (get-analyses.ts).
        render: (r) => (
          <Tag color={STATUS_COLOR[r.status]} data-testid={`analysis-status-${r.id}`}>
            {t(analysisStatusText[r.status])}
            {r.status === 'processing' ? ` ${r.progress}%` : ''}
          </Tag>
        ),
      },
      {
        key: 'created_at',
        title: t(m.colCreated),
        render: (r) => (
          <time dateTime={r.created_at} className="nowrap">
            {formatDate(r.created_at)} <span className="text-muted">{formatTime(r.created_at)}</span>
          </time>
        ),
      },
      {
        key: 'actions',
        title: t(m.colActions),
        exportKey: null,
        render: (r) => (
          <span className="inline-flex align-stretch gap-4 nowrap">
            <Tooltip title={t(r.status === 'failed' ? m.openFailedTip : m.openTip)}>
              <Button
                size="small"
                type="link"
                icon={<EyeOutlined aria-hidden="true" />}
                onClick={(e) => {
                  e.stopPropagation();
                  void navigate(paths.tenant.analysis(r.id));
                }}
              >
                {t(m.view)}
              </Button>
            </Tooltip>
            <Button
              size="small"
              type="link"
              danger
              icon={<DeleteOutlined aria-hidden="true" />}
              onClick={(e) => {
                e.stopPropagation();
                setPendingDelete([r.id]);
              }}
            >
              {t(m.delete)}
            </Button>
          </span>
        ),
      },
    ],
    [navigate],
  );

  return (
    <>
      <ListPage<AnalysisSummary>
        title={t(m.listTitle)}
        count={query.data?.data}
        rows={query.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={query.isFetching && !query.data}
        error={query.isError && !query.data}
        onRetry={() => void query.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        selectable
        onDeleteSelected={(keys) => setPendingDelete(keys)}
        onRowClick={(r) => void navigate(paths.tenant.analysis(r.id))}
        emptyText={t(m.empty)}
        storageKey="custom-analysis"
      />
      <ConfirmDialog
        open={pendingDelete !== null}
        title={t(m.deleteTitle)}
        confirmLabel={t(m.delete)}
        danger
        loading={remove.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() =>
          remove.mutate(pendingDelete ?? [], {
            onSuccess: () => notifySuccess(t(m.deleted)),
            onSettled: () => setPendingDelete(null),
          })
        }
      >
        {t(m.deleteQuestion)}
      </ConfirmDialog>
    </>
  );
}
