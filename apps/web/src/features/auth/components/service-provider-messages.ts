// The two error codes of the admin-link login (docs/requirements.md §2, §8): the page shows the message, then returns to /.
import { t } from '../../../i18n';
import { apiErrorText } from '../../../lib/api-errors.messages';

const SERVICE_PROVIDER_TEXTS = { '105': apiErrorText.invalidServiceProvider, '106': apiErrorText.noServiceProviderAccess } as const;

/** The English texts, by code (the codes the admin-link login knows). */
export const SERVICE_PROVIDER_MESSAGES: Readonly<Record<string, string>> = {
  '105': SERVICE_PROVIDER_TEXTS['105'].defaultMessage,
  '106': SERVICE_PROVIDER_TEXTS['106'].defaultMessage,
};

/** The code's message in the page's language, or undefined for a code the login does not know. */
export function serviceProviderMessage(code: string): string | undefined {
  return code in SERVICE_PROVIDER_TEXTS ? t(SERVICE_PROVIDER_TEXTS[code as keyof typeof SERVICE_PROVIDER_TEXTS]) : undefined;
}
