// GET and PUT /reference-layers/risk-settings/: the tenant's plot-risk thresholds (docs/decisions/0072-eudr-plot-risk.md).
// A change applies at once to every verdict (they are computed when read), so the farms' screenings are refreshed too.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlotRiskSettings, UpdatePlotRiskSettingsBody } from '@farmland/contracts';
import { api } from '../../../lib/api-client';
import type { Envelope } from '../../../lib/contract-types';
import { queryKeys } from '../../../lib/query-keys';

const PATH = '/reference-layers/risk-settings/';

export function useRiskSettings() {
  return useQuery({ queryKey: queryKeys.referenceLayers.riskSettings, queryFn: ({ signal }) => api<Envelope<PlotRiskSettings>>(PATH, { signal }) });
}

export function useSaveRiskSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePlotRiskSettingsBody) => api<Envelope<PlotRiskSettings>>(PATH, { method: 'PUT', body }),
    // The form places field errors beside their fields and sends the rest to the notifier itself.
    meta: { silent: true },
    onSuccess: (res) => {
      client.setQueryData(queryKeys.referenceLayers.riskSettings, res);
      void client.invalidateQueries({ queryKey: queryKeys.referenceLayers.screenings });
    },
  });
}
