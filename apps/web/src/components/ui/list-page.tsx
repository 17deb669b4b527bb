// The list page every later list reuses: title with a count badge, a search debounced by 400 ms, a Filter button,
// the column-visibility menu, Export table, pagination with sizes 10/20/30/40/50, and row selection with a count and
// a delete icon. It holds only presentation state; the page owns the query.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Result from 'antd/es/result';
import Table from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { DeleteOutlined, FilterOutlined, SearchOutlined } from '@ant-design/icons';
import { formatNumber } from '../../lib/formatters';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ColumnMenu } from './column-menu';
import { CountBadge } from './count-badge';
import { pagerTotal, rangeText, readTotal, type ListTotal } from './list-total';
import { ExportButton } from './export-button';
import { useLatest } from '../../lib/use-latest';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;

export type ListColumn<T> = {
  /** The column's key; also its name in the export's column_list. */
  key: string;
  title: string;
  render: (row: T) => ReactNode;
  defaultHidden?: boolean;
  width?: number | string;
  /** One line, cut with an ellipsis; on hover the full text shows: in a tooltip when `tooltip` gives it, else the browser's title. */
  ellipsis?: boolean;
  tooltip?: (row: T) => string | null | undefined;
  /** Always shown, never in the column menu nor in the export (a row's action menu). */
  alwaysVisible?: boolean;
  /** The column's name in the export, when it differs from key; null leaves it out (row actions). */
  exportKey?: string | null;
};

type Props<T> = {
  title: string;
  /**
   * The list's total: a number, or the API's page itself ({ count, count_estimated }), whose estimated counts show as
   * "about 1,000,000".
   */
  count: number | ListTotal | undefined;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** 1 when the list is the page (its title is the page's h1); 2 under a page that has its own h1. */
  headingLevel?: 1 | 2;
  columns: readonly ListColumn<T>[];
  loading: boolean;
  error?: boolean;
  onRetry?: () => void;
  search: string;
  onSearch: (search: string) => void;
  searchPlaceholder?: string;
  page: number;
  pageSize: number;
  onPageChange: (page: number, pageSize: number) => void;
  /** Opens the page's filter modal; the number shows how many filters apply. */
  onOpenFilter?: () => void;
  activeFilters?: number;
  /** The export's list name ({name}.csv); the export sends the visible columns and these filters. */
  exportName?: string;
  exportFilters?: Record<string, string>;
  /** The list's own export route (a GET streaming its csv with the filters as query), instead of POST /base/export/{name}/. */
  exportPath?: string;
  /** The export button's text (default 'Export table'). */
  exportLabel?: string;
  /** Row selection: a count of selected rows, and a delete icon when onDelete is given. */
  selectable?: boolean;
  onDeleteSelected?: (keys: string[]) => void;
  onRowClick?: (row: T) => void;
  emptyText?: string;
  actions?: ReactNode;
  /** Remembers the visible columns per list. */
  storageKey?: string;
};

function initialVisible<T>(columns: readonly ListColumn<T>[], storageKey: string | undefined): string[] {
  const defaults = columns.filter((c) => !c.defaultHidden && !c.alwaysVisible).map((c) => c.key);
  if (!storageKey) return defaults;
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(`farmland.columns.${storageKey}`) ?? 'null');
    if (Array.isArray(saved)) {
      const keys = columns.map((c) => c.key).filter((k) => saved.includes(k));
      if (keys.length) return keys;
    }
  } catch {
    // ignore a broken saved value
  }
  return defaults;
}

export function ListPage<T>(props: Props<T>) {
  const { title, rows, rowKey, columns, loading, page, pageSize, onPageChange, storageKey } = props;
  const { count, estimated } = readTotal(props.count);
  const [text, setText] = useState(props.search);
  const debounced = useDebouncedValue(text);
  const lastSent = useRef(props.search);
  const onSearchRef = useLatest(props.onSearch);
  const [visible, setVisible] = useState<string[]>(() => initialVisible(columns, storageKey));
  const [chosen, setSelected] = useState<string[]>([]);
  // A selection only holds rows that are still on screen (a new search, filter or page replaces them).
  const selected = useMemo(() => chosen.filter((k) => rows.some((r) => rowKey(r) === k)), [chosen, rows, rowKey]);

  useEffect(() => {
    if (debounced.trim() === lastSent.current.trim()) return;
    lastSent.current = debounced;
    onSearchRef.current(debounced.trim());
  }, [debounced, onSearchRef]);

  // A search box filled from elsewhere (the header search) follows the page's search.
  useEffect(() => {
    if (props.search !== lastSent.current) {
      lastSent.current = props.search;
      setText(props.search);
    }
  }, [props.search]);

  const changeVisible = (keys: string[]) => {
    setVisible(keys);
    if (storageKey) {
      try {
        localStorage.setItem(`farmland.columns.${storageKey}`, JSON.stringify(keys));
      } catch {
        // not remembered
      }
    }
  };

  const choosable = useMemo(() => columns.filter((c) => !c.alwaysVisible), [columns]);
  const tableColumns = useMemo(
    () =>
      columns
        .filter((c) => c.alwaysVisible || visible.includes(c.key))
        .map((c) => ({
          key: c.key,
          // A cut column's heading still wraps onto a second line rather than being cut too.
          // A column without a heading (row actions) still names itself to screen readers: no empty table header.
          title: !c.title ? <span className="visually-hidden">{t(m.actions)}</span> : c.ellipsis ? <span className="wrap-words">{c.title}</span> : c.title,
          // A data cell holds names and data, never to be translated (the French browser test skips it: e2e/i18n-french.e2e.ts).
          onCell: c.title ? () => ({ translate: 'no' as const }) : undefined,
          render: (_: unknown, row: T) => {
            const tip = c.ellipsis && c.tooltip ? c.tooltip(row) : null;
            return tip ? (
              <Tooltip title={tip} placement="topLeft">
                <span>{c.render(row)}</span>
              </Tooltip>
            ) : (
              c.render(row)
            );
          },
          width: c.width,
          // With a tooltip, the browser's own title would show the same text a second time.
          ellipsis: c.ellipsis ? (c.tooltip ? { showTitle: false } : true) : undefined,
        })),
    [columns, visible],
  );

  // The export asks for the visible columns, by their export names, without the ones that are not data (row actions).
  const exportColumns = useMemo(
    () => columns.filter((c) => !c.alwaysVisible && visible.includes(c.key) && c.exportKey !== null).map((c) => c.exportKey ?? c.key),
    [columns, visible],
  );

  const headingId = `list-${title.replace(/\W+/g, '-').toLowerCase()}`;

  return (
    <section aria-labelledby={headingId}>
      <div className="inline-12 mb-16">
        <Typography.Title level={props.headingLevel ?? 1} id={headingId} className={props.headingLevel === 2 ? 'section-title' : 'page-title'}>
          {title}
        </Typography.Title>
        <CountBadge count={count} estimated={estimated} label={t(m.entries)} />
        <div className="grow" />
        {props.exportName && (
          <ExportButton
            name={props.exportName}
            columns={exportColumns}
            filters={props.exportFilters ?? {}}
            path={props.exportPath}
            {...(props.exportLabel ? { label: props.exportLabel } : {})}
          />
        )}
        {props.actions}
      </div>
      <Card styles={{ body: { padding: 16 } }}>
        <div className="inline-12 mb-16">
          <Input
            aria-label={t(m.searchList, { title: title.toLowerCase() })}
            placeholder={props.searchPlaceholder ?? t(m.search)}
            prefix={<SearchOutlined aria-hidden="true" />}
            allowClear
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="list-search"
          />
          {props.onOpenFilter && (
            <Button icon={<FilterOutlined aria-hidden="true" />} onClick={props.onOpenFilter}>
              {props.activeFilters ? t(m.filterCount, { count: props.activeFilters }) : t(m.filter)}
            </Button>
          )}
          <ColumnMenu columns={choosable} visible={visible} onChange={changeVisible} />
          {props.selectable && selected.length > 0 && (
            <div className="inline gap-8 push-end" data-testid="selection-bar">
              <span role="status">{t(m.selected, { count: formatNumber(selected.length) })}</span>
              {props.onDeleteSelected && (
                <Tooltip title={t(m.deleteSelected)}>
                  <Button
                    danger
                    type="text"
                    icon={<DeleteOutlined aria-hidden="true" />}
                    aria-label={t(m.deleteSelected)}
                    onClick={() => props.onDeleteSelected?.(selected)}
                  />
                </Tooltip>
              )}
            </div>
          )}
        </div>
        {props.error ? (
          <Result
            status="warning"
            title={t(m.listFailed)}
            extra={
              props.onRetry && (
                <Button type="primary" onClick={props.onRetry}>
                  {t(m.tryAgain)}
                </Button>
              )
            }
          />
        ) : (
          <div className="scroll-x">
            <Table<T>
              rowKey={rowKey}
              dataSource={rows}
              columns={tableColumns}
              loading={loading}
              size="middle"
              locale={{ emptyText: <span className="list-empty">{props.emptyText ?? t(m.noEntries)}</span> }}
              rowSelection={
                props.selectable
                  ? {
                      selectedRowKeys: selected,
                      onChange: (keys) => setSelected(keys.map(String)),
                      columnWidth: 48,
                      // Ant Design names the header checkbox in English whatever its locale.
                      getTitleCheckboxProps: () => ({ 'aria-label': t(m.selectAll) }),
                    }
                  : undefined
              }
              onRow={(row) =>
                props.onRowClick
                  ? {
                      onClick: (e) => {
                        if ((e.target as HTMLElement).closest('.ant-table-selection-column, button, a')) return;
                        props.onRowClick?.(row);
                      },
                      onKeyDown: (e) => {
                        if (e.key === 'Enter') props.onRowClick?.(row);
                      },
                      tabIndex: 0,
                      style: { cursor: 'pointer' },
                    }
                  : {}
              }
              pagination={{
                current: page,
                pageSize,
                // The API pages through the first 10,000 rows of a list (a search or a filter narrows the rest).
                total: pagerTotal(count ?? 0),
                pageSizeOptions: PAGE_SIZES.map(String),
                showSizeChanger: true,
                showTotal: (_total, [from, to]) => rangeText(from, to, count ?? 0, estimated),
                onChange: (p, s) => {
                  setSelected([]);
                  onPageChange(s !== pageSize ? 1 : p, s);
                },
              }}
            />
          </div>
        )}
      </Card>
    </section>
  );
}
