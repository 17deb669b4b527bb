// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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

const STATUS: Record<AnalysisStatus, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'default' },
  processing: { label: 'Processing', color: 'processing' },
  completed: { label: 'Completed', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

export const DELETE_ANALYSIS_QUESTION = 'Are you sure you want to delete this analysis? This action cannot be undone.';

export function AnalysisReportList() {
  const state = useListState({ defaultPageSize: ANALYSES_PAGE_SIZE });
  const { search, page, pageSize } = state;
  const [pendingDelete, setPendingDelete] = useState<string[] | null>(null);
  const query = useAnalyses({ page, page_size: pageSize, search: search || undefined });
  const remove = useDeleteAnalyses();
  const navigate = useNavigate();

  const columns = useMemo<ListColumn<AnalysisSummary>[]>(
    () => [
      { key: 'name', title: 'Name', render: (r) => r.name },
      { key: 'total_uploaded_data_count', title: 'Uploaded rows', render: (r) => formatNumber(r.total_uploaded_data_count) },
      {
        key: 'total_area',
        title: 'Total area',
        render: (r) => (
          <span className="nowrap">
            {formatSqm(r.total_area)} <span className="text-muted">({formatHectares(r.total_area)})</span>
          </span>
        ),
      },
      {
        key: 'status',
        title: 'Status',
        // Live: the list polls while an analysis is queued or processing (get-analyses.ts).
        render: (r) => (
          <Tag color={STATUS[r.status].color} data-testid={`analysis-status-${r.id}`}>
            {STATUS[r.status].label}
            {r.status === 'processing' ? ` ${r.progress}%` : ''}
          </Tag>
        ),
      },
      {
        key: 'created_at',
        title: 'Created',
        render: (r) => (
          <time dateTime={r.created_at} className="nowrap">
            {formatDate(r.created_at)} <span className="text-muted">{formatTime(r.created_at)}</span>
          </time>
        ),
      },
      {
        key: 'actions',
        title: 'Actions',
        exportKey: null,
        render: (r) => (
          <span style={{ display: 'inline-flex', gap: 4, whiteSpace: 'nowrap' }}>
            <Tooltip title={r.status === 'failed' ? 'Open the analysis to see why it failed' : 'Open analysed data'}>
              <Button
                size="small"
                type="link"
                icon={<EyeOutlined aria-hidden="true" />}
                onClick={(e) => {
                  e.stopPropagation();
                  navigate(paths.tenant.analysis(r.id));
                }}
              >
                View
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
              Delete
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
        title="Analysis Report"
        count={query.data?.data}
        rows={query.data?.data.results ?? []}
        rowKey={(r) => r.id}
        columns={columns}
        loading={query.isFetching && !query.data}
        error={query.isError && !query.data}
        onRetry={() => void query.refetch()}
        {...state.listProps}
        searchPlaceholder="Search analyses by name"
        selectable
        onDeleteSelected={(keys) => setPendingDelete(keys)}
        onRowClick={(r) => navigate(paths.tenant.analysis(r.id))}
        emptyText="No analyses yet"
        storageKey="custom-analysis"
      />
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete analysis"
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() =>
          remove.mutate(pendingDelete ?? [], {
            onSuccess: () => notifySuccess('Analysis deleted successfully'),
            onSettled: () => setPendingDelete(null),
          })
        }
      >
        {DELETE_ANALYSIS_QUESTION}
      </ConfirmDialog>
    </>
  );
}
