import type { MDXComponents } from "mdx/types";
import { CodeBlock } from "@/components/ui/code-block";

// How the guides' Markdown renders (app/docs/guides/*/page.mdx): the site's type scale and colours, code blocks with
// a copy button, and wide tables that scroll inside their own region instead of the page.
const components: MDXComponents = {
  h1: (props) => <h1 className="text-3xl font-bold tracking-tight text-slate-900" {...props} />,
  h2: (props) => <h2 className="mt-10 text-xl font-semibold tracking-tight text-slate-900" {...props} />,
  h3: (props) => <h3 className="mt-6 font-semibold text-slate-900" {...props} />,
  p: (props) => <p className="mt-4 leading-7 text-slate-700" {...props} />,
  ul: (props) => <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-700" {...props} />,
  ol: (props) => <ol className="mt-4 list-decimal space-y-2 pl-6 text-slate-700" {...props} />,
  a: (props) => <a className="text-teal-800 underline" {...props} />,
  code: (props) => <code className="rounded bg-slate-100 px-1 py-0.5 text-[0.9em] text-slate-900 break-words" {...props} />,
  pre: ({ children }) => {
    const child = children as { props?: { children?: unknown } } | undefined;
    const code = typeof child?.props?.children === "string" ? child.props.children.replace(/\n$/, "") : "";
    return (
      <div className="mt-4">
        <CodeBlock what="Code" code={code} />
      </div>
    );
  },
  table: (props) => (
    <div className="mt-4 overflow-x-auto rounded border border-slate-200" tabIndex={0} role="region" aria-label="Table">
      <table className="min-w-full text-left text-sm" {...props} />
    </div>
  ),
  th: (props) => <th className="bg-slate-50 px-3 py-2 font-semibold text-slate-900" {...props} />,
  td: (props) => <td className="border-t border-slate-100 px-3 py-2 align-top text-slate-700" {...props} />,
};

export function useMDXComponents(): MDXComponents {
  return components;
}
