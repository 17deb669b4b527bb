// The three-step modal wizard (Create/Edit Tenant, Add Agent…): Back and Next between steps; Submit is enabled only on
// the third step (docs/requirements.md §4). A step may check its fields before Next.
import { useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Steps from 'antd/es/steps';
import { t } from '../../i18n';
import { uiText as m } from './ui.messages';

export type WizardStep = {
  title: string;
  content: ReactNode;
  /** Resolves true when the step's fields are valid (Next stays on the step otherwise). */
  validate?: () => Promise<boolean>;
};

type Props = {
  open: boolean;
  title: string;
  steps: readonly [WizardStep, WizardStep, WizardStep];
  submitLabel?: string;
  submitting?: boolean;
  onSubmit: () => void;
  onCancel: () => void;
};

export function StepWizard({ open, title, steps, submitLabel, submitting = false, onSubmit, onCancel }: Props) {
  const [current, setCurrent] = useState(0);
  const last = current === steps.length - 1;
  const step = steps[current] ?? steps[0];
  const next = async () => {
    if (step.validate && !(await step.validate())) return;
    setCurrent((c) => Math.min(c + 1, steps.length - 1));
  };
  const close = () => {
    setCurrent(0);
    onCancel();
  };
  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      width={600}
      destroyOnHidden
      afterClose={() => setCurrent(0)}
      footer={[
        <Button key="cancel" onClick={close} disabled={submitting}>
          {t(m.cancel)}
        </Button>,
        current > 0 && (
          <Button key="back" onClick={() => setCurrent((c) => c - 1)} disabled={submitting}>
            {t(m.back)}
          </Button>
        ),
        !last && (
          <Button key="next" type="primary" onClick={() => void next()}>
            {t(m.next)}
          </Button>
        ),
        <Button key="submit" type="primary" onClick={onSubmit} disabled={!last} loading={submitting}>
          {submitLabel ?? t(m.submit)}
        </Button>,
      ]}
    >
      <Steps current={current} size="small" items={steps.map((s) => ({ title: s.title }))} className="mb-24" />
      {steps.map((s, i) => (
        <div key={s.title} hidden={i !== current}>
          {s.content}
        </div>
      ))}
    </Modal>
  );
}
