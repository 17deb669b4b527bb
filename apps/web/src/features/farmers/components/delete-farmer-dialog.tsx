// Delete Farmer: the spec's question. A farmer with farms cannot be deleted alone (the API answers 409
// farmer_has_farms): the dialog says so before anything is sent, and Delete stays disabled until the user also chooses
// to delete the farms (DELETE ?delete_farms=true). If farms arrived meanwhile, the API's refusal shows in the dialog.
import { useState } from 'react';
import Alert from 'antd/es/alert';
import Checkbox from 'antd/es/checkbox';
import type { Farmer } from '@farmland/contracts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useDeleteFarmer } from '../api/delete-farmer';
import { currentLocale, t } from '../../../i18n';
import { farmersText as m } from '../farmers.messages';

export function DeleteFarmerDialog({ farmer, onClose, onDeleted }: { farmer: Farmer | null; onClose: () => void; onDeleted: (id: string) => void }) {
  const remove = useDeleteFarmer();
  const [withFarms, setWithFarms] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // Another farmer starts with the choice cleared (state adjusted while rendering, not in an effect).
  const [shownFor, setShownFor] = useState(farmer);
  if (shownFor !== farmer) {
    setShownFor(farmer);
    setWithFarms(false);
    setRefusal(null);
  }

  const hasFarms = (farmer?.number_of_farm ?? 0) > 0 || refusal !== null;
  const confirm = () => {
    if (!farmer) return;
    remove.mutate(
      { id: farmer.id, deleteFarms: withFarms },
      {
        onSuccess: (res) => {
          // English reads the API's own sentence (it counts the farms it deleted); French says the same from the farmer's count.
          notifySuccess(
            currentLocale() === 'en' && res.message
              ? res.message
              : withFarms && farmer.number_of_farm > 0
                ? t(m.deletedWithFarms, { count: farmer.number_of_farm })
                : t(m.deleted),
          );
          onDeleted(farmer.id);
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 409 && err.code === 'farmer_has_farms') setRefusal(err.message);
          else notifyError(err);
        },
      },
    );
  };

  const farms = farmer?.number_of_farm ?? 0;
  return (
    <ConfirmDialog
      open={Boolean(farmer)}
      title={t(m.deleteFarmer)}
      confirmLabel={hasFarms && withFarms ? t(m.deleteWithFarms) : t(m.delete)}
      danger
      loading={remove.isPending}
      confirmDisabled={hasFarms && !withFarms}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <p>{t(m.deleteQuestion)}</p>
      {hasFarms && (
        <div data-testid="farmer-has-farms">
          <Alert type="warning" showIcon className="mb-12" title={refusal ?? t(m.hasFarms, { name: farmer?.farmer_name, count: farms })} />
          <Checkbox checked={withFarms} onChange={(e) => setWithFarms(e.target.checked)}>
            {t(m.alsoDeleteFarms, { count: farms })}
          </Checkbox>
        </div>
      )}
    </ConfirmDialog>
  );
}
