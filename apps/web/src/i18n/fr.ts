// The French catalogue, loaded only when French is chosen (its own chunk): every `*.messages.fr.ts` of the console,
// Ant Design's French texts and dayjs's French locale.
import dayjs from 'dayjs';
import 'dayjs/locale/fr';
import frFR from 'antd/es/locale/fr_FR';

const modules = import.meta.glob<Record<string, string>>('../**/*.messages.fr.ts', { eager: true, import: 'default' });

export const frMessages: Record<string, string> = Object.assign({}, ...Object.values(modules));
export const antdLocale = frFR;

export function applyDayjsLocale(): void {
  dayjs.locale('fr');
}
