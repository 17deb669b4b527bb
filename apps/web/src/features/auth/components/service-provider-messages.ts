// The two error codes of the admin-link login (docs/requirements.md §2, §8): the page shows the message, then returns to /.
export const SERVICE_PROVIDER_MESSAGES: Record<string, string> = {
  '105': 'Invalid Service Provider',
  '106': 'You do not have the right access to this service Provider',
};
