import { Clock, Info } from 'lucide-react';
import { CopyButton } from '../../components/copy-button';
import { TitledDialog } from '../../components/form-dialog';
import { DNS_RECORD_TTL_SECONDS } from '../../lib/constants';
import { composerTargetNote, dnsPropagationNote, dnsRecords } from './dns-records';

/** DNS setup help (spec seller-app §2, §9): the CNAME records of a custom domain and how long they take. */
/** The copy button beside a record's target, in the phone's list and the desktop's table alike. */
function CopyTargetButton({ record }: { record: { name: string; value: string } }) {
  return (
    <CopyButton
      value={record.value}
      size="icon"
      variant="ghost"
      label={`Copy ${record.name} target`}
      className="size-8 shrink-0"
    />
  );
}

export function DnsHelpDialog({
  open,
  onOpenChange,
  brandDomain,
  composerTarget,
  publicUrl,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  brandDomain: string;
  composerTarget: string;
  publicUrl: string;
}) {
  const records = dnsRecords({ brandDomain, composerTarget, publicUrl });
  const [composer] = records;
  return (
    <TitledDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title="DNS Setup Help"
      description="Serve your Composer repository from your own domain. Add these records at your DNS provider, then verify the domain here."
    >
      <ol className="min-w-0 space-y-5 text-sm">
        <li className="space-y-3">
          <p className="font-semibold">1. Add two CNAME records</p>
          {/* Phones: one card per record; wider screens: the table DNS providers show. */}
          <ul className="space-y-2 sm:hidden">
            {records.map((record) => (
              <li key={record.host} className="space-y-1 rounded-md border p-3">
                <p className="flex items-center justify-between gap-2">
                  <span className="font-mono font-medium">
                    {record.type} {record.name}
                  </span>
                  <span className="text-xs text-muted-foreground">TTL {record.ttl}</span>
                </p>
                <p className="text-xs text-muted-foreground">{record.host}</p>
                <p className="flex items-center gap-1">
                  <span className="shrink-0 text-xs text-muted-foreground">Points to</span>
                  <span className="min-w-0 font-mono break-all">{record.value}</span>
                  <CopyTargetButton record={record} />
                </p>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-md border sm:block">
            <table className="w-full text-left" data-testid="dns-records">
              <thead className="bg-muted/60 text-xs text-muted-foreground">
                <tr>
                  <th className="px-3 py-2 font-medium">Type</th>
                  <th className="px-3 py-2 font-medium">Name</th>
                  <th className="px-3 py-2 font-medium">Value (points to)</th>
                  <th className="px-3 py-2 font-medium">TTL</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {records.map((record) => (
                  <tr key={record.host} data-testid="dns-record">
                    <td className="px-3 py-2 font-mono">{record.type}</td>
                    <td className="px-3 py-2">
                      <span className="font-mono">{record.name}</span>
                      <span className="block text-xs text-muted-foreground">{record.host}</span>
                    </td>
                    <td className="px-3 py-2">
                      <span className="flex items-center gap-1">
                        <span className="font-mono break-all">{record.value}</span>
                        <CopyTargetButton record={record} />
                      </span>
                    </td>
                    <td className="px-3 py-2 font-mono">{record.ttl}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-1 text-muted-foreground">
            {records.map((record) => (
              <li key={record.host}>
                <span className="font-mono text-foreground">{record.name}</span>: {record.purpose}
              </li>
            ))}
          </ul>
          <p className="rounded-md border bg-muted/40 p-3" data-testid="dns-target-note">
            <span className="font-mono">{composer?.name}</span>: {composerTargetNote(composerTarget)}
          </p>
          <p className="text-muted-foreground">
            Set the TTL to {DNS_RECORD_TTL_SECONDS} seconds so that a mistake is quick to correct. Behind a proxying DNS
            provider (Cloudflare, for instance), set the records to DNS only.
          </p>
        </li>
        <li className="space-y-1">
          <p className="font-semibold">2. Save the domain</p>
          <p className="text-muted-foreground">
            Enter <span className="font-mono text-foreground">{composer?.host}</span> as your Custom Domain and click
            Save Branding.
          </p>
        </li>
        <li className="space-y-1">
          <p className="font-semibold">3. Verify it</p>
          <p className="text-muted-foreground">
            Click Verify domain. Once it is verified, new license e-mails give license holders your domain as the
            repository URL; the {composerTarget} address keeps working for those who already use it. The domain is yours
            from the moment it is verified: until then anyone may type it in, and that does not stop you.
          </p>
        </li>
      </ol>

      <p className="flex items-start gap-2 rounded-md border bg-muted/40 p-3 text-sm" data-testid="dns-propagation">
        <Clock className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <span>{dnsPropagationNote()}</span>
      </p>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
        <span>
          Composer keeps one token per host: license holders who switch to your domain set their token for it again with
          composer config bearer.{composer?.host} YOUR_TOKEN.
        </span>
      </p>
    </TitledDialog>
  );
}
