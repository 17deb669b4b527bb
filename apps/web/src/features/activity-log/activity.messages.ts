// Texts of the Activity Log screen (provider and tenant).
import { defineMessages } from '../../i18n';

export const activityText = defineMessages('activity', {
  title: 'Activity Log',
  details: 'Activity details',
  user: 'User',
  role: 'Role',
  action: 'Action',
  description: 'Description',
  platform: 'Platform',
  country: 'Country',
  tenant: 'Tenant',
  date: 'Date',
  time: 'Time',
  timestamp: 'Timestamp',
  dateRange: 'Date range',
  create: 'Create',
  update: 'Update',
  searchPlaceholder: 'Search user, description, action or platform',
  empty: 'No activity matches your search or filters',
  roleSuperAdmin: 'Super admin',
  roleTenantAdmin: 'Tenant admin',
  roleAgent: 'Agent',
  system: 'System',
  web: 'Web',
  mobile: 'Mobile',
});
