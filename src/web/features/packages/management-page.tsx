import { PackagePlus, Plus } from 'lucide-react';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyStateCard } from '../../components/empty-state-card';
import { LoadingLine } from '../../components/loading-line';
import { PageHeading } from '../../components/page-heading';
import { SearchField } from '../../components/search-field';
import { Button } from '../../components/ui/button';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { Tabs } from '../../components/ui/tabs';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage } from '../../lib/api-error';
import { isAdmin, useCurrentUser } from '../../lib/current-user';
import { usePermission } from '../../lib/permissions';
import { hasNothingLoaded } from '../../lib/query-state';
import { useRepositoryUrl } from '../../lib/repository-url';
import { useSubscriptionStatus } from '../../lib/subscriptions/subscription-status';
import { useTabParam } from '../../lib/tab-param';
import { AddPackageDialog } from './add-package-dialog';
import { EditPackageDialog } from './edit-package-dialog';
import { CheckForTagsButton } from './git-url-package';
import { LifecycleDialog } from './lifecycle-dialog';
import { type PackageAction, PackageCard } from './package-card';
import {
  type Package,
  useDeletePackage,
  usePackages,
  useRefetchPackagesAfterSync,
  useRefreshPackage,
} from './package-hooks';
import {
  addPackageAvailability,
  filterPackages,
  isPackageFilter,
  type PackageFilter,
  packageFilterLabels,
  packageFilters,
} from './package-rules';
import { SetupGuideDialog } from './setup-guide-dialog';
import { StatCards } from './stat-cards';

const managementTabs = [
  { value: 'overview', label: 'Overview' },
  { value: 'access', label: 'Access Management' },
  { value: 'products', label: 'Products' },
] as const;

const ADD_PACKAGE_ACTION = 'add-package';

/** The package a dialog of another domain acts on; the app shell supplies those dialogs. */
export type PackageRef = Pick<Package, 'id' | 'packageName'>;

export type ManagementPageProps = {
  /** The Access Management tab's content, rendered only while that tab is open. */
  accessManagement: ReactNode;
  /** The Products tab's content (issue 31), rendered only while that tab is open. */
  products?: ReactNode;
  /** The Temporary Licenses dialog of a package; open while `pkg` is set. */
  TemporaryLicensesDialog: ComponentType<{ pkg: PackageRef | undefined; onClose: () => void }>;
  /** The Licenses dialog of a package (lasting licenses with their terms); open while `pkg` is set. */
  LicensesDialog: ComponentType<{ pkg: PackageRef | undefined; onClose: () => void }>;
  /** The Pricing dialog of a package (its tiers on the purchase page); open while `pkg` is set. */
  PricingDialog: ComponentType<{ pkg: PackageRef | undefined; onClose: () => void }>;
};

/** /management (spec seller-app §2): packages with their stat cards, dialogs, and the license holders. */
export function ManagementPage({
  accessManagement,
  products,
  TemporaryLicensesDialog,
  LicensesDialog,
  PricingDialog,
}: ManagementPageProps) {
  const [params, setParams] = useSearchParams();
  const [tab, openTab] = useTabParam(managementTabs);
  const { data: user } = useCurrentUser();
  const status = useSubscriptionStatus();
  const availability = addPackageAvailability(isAdmin(user), status.data);
  const isStatusKnown = isAdmin(user) || !status.isLoading;
  const [isAddOpen, setIsAddOpen] = useState(false);
  const wantsAddPackage = params.get('action') === ADD_PACKAGE_ACTION;
  // A role without packages:write sees Add Package disabled, with the server's sentence as the reason (issue 33).
  const writePackages = usePermission('packages:write');
  const readCustomers = usePermission('customers:read');

  useRefetchPackagesAfterSync();

  // ?action=add-package opens the dialog once, then leaves the address (spec §2).
  useEffect(() => {
    if (!wantsAddPackage || !isStatusKnown) return;
    if (availability.isEnabled && writePackages.allowed) setIsAddOpen(true);
    setParams(
      (current) => {
        current.delete('action');
        return current;
      },
      { replace: true },
    );
  }, [wantsAddPackage, isStatusKnown, availability.isEnabled, writePackages.allowed, setParams]);

  return (
    <div className="container mx-auto space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeading title="Repository Management">
          Your packages, who may install them, and how much they are used.
        </PageHeading>
        {availability.isVisible &&
          (!writePackages.allowed ? (
            <Button disabled title={writePackages.reason}>
              <Plus /> Add Package
            </Button>
          ) : availability.isEnabled ? (
            <div className="flex flex-wrap gap-2">
              <CheckForTagsButton />
              <Button onClick={() => setIsAddOpen(true)}>
                <Plus /> Add Package
              </Button>
            </div>
          ) : (
            <Tooltip content="Subscribe to add packages">
              {/* A disabled button takes no pointer or focus: the wrapper carries the hint. */}
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip's trigger */}
              <span tabIndex={0} className="inline-flex rounded-md">
                <Button disabled>
                  <Plus /> Add Package
                </Button>
              </span>
            </Tooltip>
          ))}
      </div>
      <Tabs label="Management sections" tabs={[...managementTabs]} value={tab} onValueChange={openTab}>
        {tab === 'overview' ? (
          <Overview
            TemporaryLicensesDialog={TemporaryLicensesDialog}
            LicensesDialog={LicensesDialog}
            PricingDialog={PricingDialog}
            onAddPackage={availability.isEnabled && writePackages.allowed ? () => setIsAddOpen(true) : undefined}
          />
        ) : tab === 'products' ? (
          products
        ) : readCustomers.allowed ? (
          accessManagement
        ) : (
          <EmptyState title="Not available for your role" text={readCustomers.reason ?? ''} />
        )}
      </Tabs>
      <AddPackageDialog open={isAddOpen} onOpenChange={setIsAddOpen} />
    </div>
  );
}

type OpenDialog = { action: Exclude<PackageAction, 'refresh'>; pkg: Package } | undefined;

function Overview({
  TemporaryLicensesDialog,
  LicensesDialog,
  PricingDialog,
  onAddPackage,
}: Pick<ManagementPageProps, 'TemporaryLicensesDialog' | 'LicensesDialog' | 'PricingDialog'> & {
  onAddPackage?: () => void;
}) {
  const packages = usePackages();
  const repositoryUrl = useRepositoryUrl();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<PackageFilter>('all');
  const [dialog, setDialog] = useState<OpenDialog>();
  const remove = useDeletePackage();
  const refresh = useRefreshPackage();

  const onAction = (action: PackageAction, pkg: Package) => {
    if (action === 'refresh') refresh.mutate(pkg);
    else setDialog({ action, pkg });
  };
  const close = () => setDialog(undefined);
  const openFor = (action: NonNullable<OpenDialog>['action']) => (dialog?.action === action ? dialog.pkg : undefined);
  const all = packages.data ?? [];
  const shown = filterPackages(all, search, filter);
  const deleting = openFor('delete');

  return (
    <div className="space-y-6">
      <StatCards />
      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchField
          className="flex-1"
          placeholder="Search packages..."
          aria-label="Search packages"
          value={search}
          onValueChange={setSearch}
        />
        <NativeSelect
          className="sm:w-48"
          aria-label="Filter packages"
          value={filter}
          onChange={(event) => isPackageFilter(event.target.value) && setFilter(event.target.value)}
        >
          <SelectOptions values={packageFilters} label={(filter) => packageFilterLabels[filter]} />
        </NativeSelect>
      </div>

      {packages.isLoading ? (
        <LoadingLine large className="justify-center py-16">
          Loading packages...
        </LoadingLine>
      ) : hasNothingLoaded(packages) ? (
        <EmptyState
          title="Unable to load packages"
          text={errorMessage(packages.error, 'Please try again in a moment.')}
        />
      ) : all.length === 0 ? (
        <EmptyState
          title="No packages yet"
          text="Add a private repository with a composer.json to start licensing it."
          action={
            onAddPackage && (
              <Button onClick={onAddPackage}>
                <Plus /> Add Package
              </Button>
            )
          }
        />
      ) : shown.length === 0 ? (
        <EmptyState title="No packages match" text="Try another search or filter." />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {shown.map((pkg) => (
            <PackageCard key={pkg.id} pkg={pkg} repositoryUrl={repositoryUrl} onAction={onAction} />
          ))}
        </div>
      )}

      <EditPackageDialog pkg={openFor('edit')} onClose={close} />
      <LifecycleDialog pkg={openFor('lifecycle')} onClose={close} />
      <SetupGuideDialog pkg={openFor('setup-guide')} repositoryUrl={repositoryUrl} onClose={close} />
      <TemporaryLicensesDialog pkg={openFor('temporary-licenses')} onClose={close} />
      <LicensesDialog pkg={openFor('licenses')} onClose={close} />
      <PricingDialog pkg={openFor('pricing')} onClose={close} />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && close()}
        variant="destructive"
        title="Delete Repository"
        description={
          <>
            Delete <span className="font-mono font-medium text-foreground">{deleting?.packageName}</span>? Its licenses
            are deleted with it and license holders can no longer install it. This cannot be undone.
          </>
        }
        confirmText="Delete"
        isPending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: close })}
      />
    </div>
  );
}

function EmptyState({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <EmptyStateCard icon={PackagePlus} title={title} action={action} className="py-14">
      {text}
    </EmptyStateCard>
  );
}
