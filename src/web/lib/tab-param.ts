import { useSearchParams } from 'wouter';

/**
 * The open tab of a page with tabs, kept in the address's `?tab=` so that a reload or a shared link opens it again.
 * The first tab is the default and leaves `tab` out; an unknown value opens it too. Other parameters stay.
 */
export function useTabParam<Value extends string>(
  tabs: readonly [{ value: Value }, ...{ value: Value }[]],
): [Value, (tab: Value) => void] {
  const [params, setParams] = useSearchParams();
  const first = tabs[0].value;
  const requested = params.get('tab');
  const tab = tabs.find((item) => item.value === requested)?.value ?? first;
  const openTab = (next: Value) =>
    setParams(
      (current) => {
        if (next === first) current.delete('tab');
        else current.set('tab', next);
        return current;
      },
      { replace: true },
    );
  return [tab, openTab];
}
