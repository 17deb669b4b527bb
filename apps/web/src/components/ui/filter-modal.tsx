// The filter modal of the lists: selects, single dates and date ranges. Apply stays disabled until something is chosen; Reset
// clears every filter. Empty values never reach a request (docs/requirements.md §5).
import { useEffect, useRef, useState } from 'react';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import dayjs from 'dayjs';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export type FilterField =
  | { kind: 'select'; name: string; label: string; options: readonly { label: string; value: string }[] }
  | { kind: 'date-range'; name: string; label: string }
  | { kind: 'date'; name: string; label: string };

export type DateRangeValue = readonly [string, string];
export type FilterValues = Record<string, string | DateRangeValue | undefined>;

const ISO_DAY = 'YYYY-MM-DD';

export function hasAnyFilter(values: FilterValues): boolean {
  return Object.values(values).some((v) => (Array.isArray(v) ? v.length === 2 : Boolean(v)));
}

export function countFilters(values: FilterValues): number {
  return Object.values(values).filter((v) => (Array.isArray(v) ? v.length === 2 : Boolean(v))).length;
}

type Props = {
  open: boolean;
  fields: readonly FilterField[];
  value: FilterValues;
  onApply: (values: FilterValues) => void;
  onClose: () => void;
  title?: string;
};

export function FilterModal({ open, fields, value, onApply, onClose, title }: Props) {
  const [draft, setDraft] = useState<FilterValues>(value);
  // The draft starts from the applied filters each time the modal opens, and only then: a parent re-render (a list
  // refetching behind the modal) hands a new `value` object and must not wipe what the user is choosing.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) setDraft(value);
    wasOpen.current = open;
  }, [open, value]);

  const set = (name: string, v: string | DateRangeValue | undefined) => setDraft((d) => ({ ...d, [name]: v }));

  return (
    <Modal
      open={open}
      title={title ?? t(m.filter)}
      onCancel={onClose}
      destroyOnHidden
      width={460}
      footer={[
        <Button
          key="reset"
          onClick={() => {
            setDraft({});
            onApply({});
            onClose();
          }}
        >
          {t(m.reset)}
        </Button>,
        <Button
          key="apply"
          type="primary"
          disabled={!hasAnyFilter(draft)}
          onClick={() => {
            onApply(Object.fromEntries(Object.entries(draft).filter(([, v]) => (Array.isArray(v) ? v.length === 2 : Boolean(v)))));
            onClose();
          }}
        >
          {t(m.applyFilter)}
        </Button>,
      ]}
    >
      <Form layout="vertical">
        {fields.map((f) => {
          const id = `filter-${f.name}`;
          if (f.kind === 'select') {
            const v = draft[f.name];
            return (
              <Form.Item key={f.name} label={f.label} htmlFor={id}>
                <Select
                  id={id}
                  allowClear
                  placeholder={t(m.selectField, { field: f.label.toLowerCase() })}
                  value={typeof v === 'string' ? v : undefined}
                  options={f.options.map((o) => ({ label: o.label, value: o.value }))}
                  onChange={(nv: string | undefined) => set(f.name, nv)}
                />
              </Form.Item>
            );
          }
          if (f.kind === 'date') {
            const v = draft[f.name];
            return (
              <Form.Item key={f.name} label={f.label} htmlFor={id}>
                <DatePicker
                  id={id}
                  className="full-width"
                  format="DD/MM/YYYY"
                  value={typeof v === 'string' ? dayjs(v) : null}
                  onChange={(d) => set(f.name, d ? d.format(ISO_DAY) : undefined)}
                />
              </Form.Item>
            );
          }
          const v = draft[f.name];
          const range = Array.isArray(v) && v.length === 2 ? ([dayjs(v[0]), dayjs(v[1])] as const) : null;
          return (
            <Form.Item key={f.name} label={f.label} htmlFor={id}>
              <DatePicker.RangePicker
                id={{ start: id, end: `${id}-end` }}
                className="full-width"
                format="DD/MM/YYYY"
                value={range ? [range[0], range[1]] : null}
                allowEmpty={[false, false]}
                onChange={(dates) => {
                  const [a, b] = dates ?? [];
                  set(f.name, a && b ? [a.format(ISO_DAY), b.format(ISO_DAY)] : undefined);
                }}
              />
            </Form.Item>
          );
        })}
      </Form>
    </Modal>
  );
}
