// /super-admin/profile and /admin/profile: the signed-in user's profile.
import { ProfileView } from '../../features/profile/components/profile-view';
import { useSession } from '../../lib/session-store';

export function ProfilePage() {
  const { user } = useSession();
  return user ? <ProfileView userId={user.id} /> : null;
}
