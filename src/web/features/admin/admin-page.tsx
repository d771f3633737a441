import { Loader2, LogOut, UserCog } from 'lucide-react';
import { useState } from 'react';
import { PageHeading } from '../../components/page-heading';
import { SearchField } from '../../components/search-field';
import { Avatar, AvatarFallback, AvatarImage } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { SectionCard } from '../../components/ui/card';
import { Tabs } from '../../components/ui/tabs';
import { IMPERSONATION_LIST_MAX_HEIGHT } from '../../lib/constants';
import { useCurrentUser } from '../../lib/current-user';
import { formatDate } from '../../lib/format-date';
import { initialsOf } from '../../lib/initials';
import { useTabParam } from '../../lib/tab-param';
import { CacheTab } from './admin-cache-tab';
import { DashboardTab } from './admin-dashboard-tab';
import { PlatformTab } from './admin-platform-tab';
import { SettingsTab } from './admin-settings-tab';
import {
  type AdminUserListItem,
  searchUsersByEmail,
  useAdminUsers,
  useImpersonate,
  useStopImpersonation,
} from './admin-users';
import { AdminUsersStates } from './admin-users-states';

const adminTabs = [
  { value: 'dashboard', label: 'Dashboard' },
  { value: 'platform', label: 'Platform' },
  { value: 'cache', label: 'Cache' },
  { value: 'users', label: 'Users' },
  { value: 'settings', label: 'Settings' },
] as const;

/** /admin: the admin dashboard's heading and tabs; the open tab is kept in `?tab=` so it survives a reload. */
export function AdminPage() {
  const [tab, openTab] = useTabParam(adminTabs);

  return (
    <div className="container mx-auto space-y-6 px-4 py-10">
      <PageHeading title="Admin Dashboard">Monitor and manage the Packgate platform.</PageHeading>
      <Tabs label="Admin sections" tabs={[...adminTabs]} value={tab} onValueChange={openTab}>
        {tab === 'dashboard' && <DashboardTab />}
        {tab === 'platform' && <PlatformTab />}
        {tab === 'cache' && <CacheTab />}
        {tab === 'users' && <UsersTab />}
        {tab === 'settings' && <SettingsTab />}
      </Tabs>
    </div>
  );
}

function TabIntro({ title, text }: { title: string; text: string }) {
  return (
    <section className="space-y-1">
      <h2 className="text-2xl font-semibold tracking-tight">{title}</h2>
      <p className="text-muted-foreground">{text}</p>
    </section>
  );
}

function UsersTab() {
  const users = useAdminUsers();
  return (
    <section className="space-y-6">
      <TabIntro title="Users" text="Find users and view the app as they see it." />
      <ImpersonationCard users={users.data ?? []} isLoading={users.isLoading} />
      <SectionCard
        title="All Users"
        description={users.data ? `${users.data.length} user${users.data.length === 1 ? '' : 's'}` : 'Every account'}
      >
        <AdminUsersStates users={users}>
          {(rows) => (
            <div className="max-h-[32rem] divide-y overflow-y-auto rounded-md border" data-testid="all-users">
              {rows.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </div>
          )}
        </AdminUsersStates>
      </SectionCard>
    </section>
  );
}

function ImpersonationCard({ users, isLoading }: { users: AdminUserListItem[]; isLoading: boolean }) {
  const [search, setSearch] = useState('');
  const { data: currentUser } = useCurrentUser();
  const stop = useStopImpersonation();
  const matches = searchUsersByEmail(users, search);
  return (
    <SectionCard
      icon={UserCog}
      title="User Impersonation"
      description="Search by email, then view the app as that user."
      contentClassName="space-y-4"
    >
      <SearchField
        placeholder="user@example.com"
        aria-label="Search users by email"
        value={search}
        onValueChange={setSearch}
      />
      <div className="overflow-y-auto rounded-md border" style={{ maxHeight: IMPERSONATION_LIST_MAX_HEIGHT }}>
        {!search.trim() ? (
          <p className="p-4 text-center text-sm text-muted-foreground">Enter email to search</p>
        ) : isLoading ? (
          <p className="p-4 text-center text-sm text-muted-foreground">Loading users...</p>
        ) : matches.length === 0 ? (
          <p className="p-4 text-center text-sm text-muted-foreground">No users found</p>
        ) : (
          <div className="divide-y">
            {matches.map((user) => (
              <UserRow key={user.id} user={user} />
            ))}
          </div>
        )}
      </div>
      {currentUser?.isImpersonating && (
        <p className="text-sm text-muted-foreground" data-testid="impersonation-state">
          You are viewing the app as <span className="font-medium text-foreground">{currentUser.email}</span>.
        </p>
      )}
      <Button
        variant="outline"
        className="w-full"
        onClick={() => stop.mutate()}
        disabled={!currentUser?.isImpersonating || stop.isPending}
      >
        {stop.isPending ? <Loader2 className="animate-spin" /> : <LogOut />}
        Stop Impersonation
      </Button>
    </SectionCard>
  );
}

function UserRow({ user }: { user: AdminUserListItem }) {
  const { data: currentUser } = useCurrentUser();
  const impersonate = useImpersonate();
  const name = user.githubUsername ?? user.displayName ?? user.email ?? user.id;
  const isSelf = currentUser?.id === user.id;
  return (
    // On a phone the button goes under the address, so that the address keeps the row's width.
    <div className="flex flex-wrap items-center gap-3 p-3" data-testid="admin-user-row">
      <Avatar>
        {user.avatarUrl && <AvatarImage src={user.avatarUrl} alt="" />}
        <AvatarFallback>{initialsOf(name)}</AvatarFallback>
      </Avatar>
      <div className="min-w-0 flex-1 basis-48">
        <p className="text-sm font-medium [overflow-wrap:anywhere]">{user.email ?? name}</p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant={user.userType === 'admin' ? 'default' : 'secondary'}>{user.userType}</Badge>
          <span className="whitespace-nowrap">Joined {formatDate(user.createdAt)}</span>
        </p>
      </div>
      {user.userType !== 'admin' && !isSelf && (
        <Button
          size="sm"
          variant="outline"
          className="ml-11 sm:ml-0"
          onClick={() => impersonate.mutate(user.id)}
          disabled={impersonate.isPending || impersonate.isSuccess}
        >
          {impersonate.isPending && <Loader2 className="animate-spin" />}
          Impersonate
        </Button>
      )}
    </div>
  );
}
