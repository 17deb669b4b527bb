// 'Failed Data' (docs/requirements.md §2, §8): an editable table of the failed rows, only the columns needed for creation (farm_name,
// farm_coordinates, operational_area_id), each failed cell's reason on hover and a green tick on valid cells. Beyond the
// spec: 'Re-analyse fixed rows' sends the edited rows as a follow-up analysis with the same operational areas and options,
// linked to this one (parent_analysis_id; its description names the rows), and opens it.
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { CheckCircleFilled, InfoCircleOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import type { AnalysisDetail, AnalysisErrorRow } from '@farmland/contracts';
import { formatNumber } from '../../../lib/formatters';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useCreateAnalysis } from '../api/create-analysis';
import { CategoryExportButtons } from './category-export-buttons';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { analysesText as m } from '../analyses.messages';

const FIELDS = ['farm_name', 'farm_coordinates', 'operational_area_id'] as const;
type Field = (typeof FIELDS)[number];
const ALIASES: Record<string, Field> = {
  farm_name: 'farm_name',
  farm_coordinates: 'farm_coordinates',
  operational_area_id: 'operational_area_id',
  operational_area: 'operational_area_id',
};
const canonical = (key: string) =>
  key
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The row's value of a creation field (under whichever header the file used), as editable text. */
export function cellText(row: Record<string, unknown>, field: Field): string {
  for (const [k, v] of Object.entries(row)) {
    if (ALIASES[canonical(k)] !== field) continue;
    if (v === null || v === undefined) return '';
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  return '';
}

type Edits = Record<number, Partial<Record<Field, string>>>;

/**
 * What a failed row's number means to the user (issue 33: "Row 3" was ambiguous): in a spreadsheet or csv, the file row
 * (the header is file row 1, so data row n is file row n + 1); in a GIS file, the feature; sent as JSON, the location.
 */
export function sourceRow(file: string | null): { title: string; help: string; value: (n: number) => string } {
  const name = (file ?? '').toLowerCase();
  if (/\.(csv|xls|xlsx)$/.test(name)) return { title: t(m.fileRow), help: t(m.fileRowHelp), value: (n) => formatNumber(n + 1) };
  if (file) return { title: t(m.feature), help: t(m.featureHelp), value: (n) => formatNumber(n) };
  return { title: t(m.location), help: t(m.locationHelp), value: (n) => formatNumber(n) };
}

export function FailedDataModal({ analysis, open, onClose }: { analysis: AnalysisDetail; open: boolean; onClose: () => void }) {
  const rowKind = sourceRow(analysis.file_name);
  const rows = useMemo(() => Object.values(analysis.error_details).sort((x, y) => x.row_number - y.row_number), [analysis.error_details]);
  const [edits, setEdits] = useState<Edits>({});
  const create = useCreateAnalysis();
  const navigate = useNavigate();
  const edited = Object.keys(edits)
    .map(Number)
    .filter((n) => Object.keys(edits[n] ?? {}).length > 0);

  const valueOf = (r: AnalysisErrorRow, f: Field) => edits[r.row_number]?.[f] ?? cellText(r.row_data, f);

  const cell = (f: Field) => (_: unknown, r: AnalysisErrorRow) => {
    const problem = r.errors.find((e) => e.field === f);
    const changed = edits[r.row_number]?.[f] !== undefined;
    return (
      <div className="cell-status">
        <Input
          size="small"
          aria-label={t(m.cellAria, { kind: rowKind.title, row: rowKind.value(r.row_number), field: f })}
          value={valueOf(r, f)}
          status={problem && !changed ? 'error' : undefined}
          onChange={(e) => setEdits((all) => ({ ...all, [r.row_number]: { ...all[r.row_number], [f]: e.target.value } }))}
        />
        {problem && !changed ? (
          <Tooltip title={problem.message}>
            <InfoCircleOutlined
              aria-label={t(m.whyFailed, { kind: rowKind.title.toLowerCase(), row: rowKind.value(r.row_number), field: f })}
              className="text-bad help-cursor"
            />
          </Tooltip>
        ) : (
          <CheckCircleFilled aria-label={t(m.valid)} className="text-ok" />
        )}
      </div>
    );
  };

  const reanalyse = () => {
    const fixed = rows.filter((r) => edited.includes(r.row_number));
    const locations = fixed.map((r) => {
      const own = Object.fromEntries(Object.entries(r.row_data).filter(([k]) => !ALIASES[canonical(k)]));
      const coords = valueOf(r, 'farm_coordinates');
      let coordinates: unknown = coords;
      try {
        coordinates = JSON.parse(coords);
      } catch {
        // sent as text: the analysis reports it as that row's error
      }
      const area = valueOf(r, 'operational_area_id').trim();
      return { ...own, farm_name: valueOf(r, 'farm_name'), farm_coordinates: coordinates, ...(area ? { operational_area_id: area } : {}) };
    });
    create.mutate(
      {
        kind: 'json',
        body: {
          name: t(m.fixedRowsName, { name: analysis.name }).slice(0, 200),
          description: t(m.followUpDescription, { name: analysis.name, rows: fixed.map((r) => r.row_number).join(', ') }).slice(0, 2000),
          operational_areas: analysis.operational_areas.map((o) => o.id),
          minimum_farm_size: analysis.minimum_farm_size,
          require_farm_recognition: analysis.require_farm_recognition,
          parent_analysis_id: analysis.id,
          locations,
        },
      },
      {
        onSuccess: (res) => {
          notifySuccess(res.message ?? t(m.uploadSuccess));
          setEdits({});
          onClose();
          void navigate(paths.tenant.analysis(res.data.id));
        },
        onError: notifyError,
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t(m.failedTitle)}
      width={960}
      onCancel={onClose}
      footer={[
        <span key="export" className="float-start">
          {rows.length > 0 && <CategoryExportButtons analysisId={analysis.id} category="errors" />}
        </span>,
        <Button key="close" onClick={onClose}>
          {t(m.close)}
        </Button>,
        <Button key="re" type="primary" disabled={edited.length === 0} loading={create.isPending} onClick={reanalyse}>
          {edited.length > 0 ? t(m.reanalyseCount, { count: String(edited.length) }) : t(m.reanalyse)}
        </Button>,
      ]}
    >
      <p>{t(m.failedInstruction)}</p>
      {analysis.error_details_truncated && <Alert type="info" showIcon className="mb-12" message={t(m.failedTruncated, { count: formatNumber(1000) })} />}
      <Table<AnalysisErrorRow>
        size="small"
        scroll={{ x: 'max-content' }}
        rowKey={(r) => r.row_number}
        dataSource={rows}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: t(m.noFailedRows) }}
        columns={[
          {
            key: 'row',
            title: <Tooltip title={rowKind.help}>{rowKind.title}</Tooltip>,
            width: 80,
            fixed: 'left' as const,
            render: (_: unknown, r: AnalysisErrorRow) => <span data-testid="file-row">{rowKind.value(r.row_number)}</span>,
          },
          ...FIELDS.map((f) => ({ key: f, title: f, render: cell(f) })),
          {
            key: 'other',
            title: t(m.otherProblems),
            render: (_: unknown, r: AnalysisErrorRow) =>
              r.errors
                .filter((e) => !(FIELDS as readonly string[]).includes(e.field))
                .map((e) => e.message)
                .join('; ') || '—',
          },
        ]}
        data-testid="failed-data-table"
      />
    </Modal>
  );
}
