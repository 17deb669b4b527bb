// /admin/agents: the Agents' List screen.
import { AgentsScreen } from '../../features/agents/components/agents-screen';

export function AgentsPage() {
  return <AgentsScreen />;
}
