import { useState } from 'react';
import { Badge, Button } from '@dash/shell-sdk/ui';
import type { PgTable } from '@dash/contracts';
import { POLICY_TEMPLATES, PREVIEW_TEMPLATE_REASON, templateStatement, type PolicyTemplate } from '../templates';

/** The eight templates: pick one to read its SQL; the usable ones fill the editor. */
export function TemplatesView({ table, onUse }: { table: PgTable; onUse: (template: PolicyTemplate) => void }) {
  const [selected, setSelected] = useState<PolicyTemplate>(POLICY_TEMPLATES[0]!);
  return (
    <div className="pol-templates">
      <ul className="pol-templates__list" aria-label="Policy templates">
        {POLICY_TEMPLATES.map((template) => (
          <li key={template.id}>
            <button
              type="button"
              className={`pol-templates__item${template.id === selected.id ? ' is-selected' : ''}`}
              aria-pressed={template.id === selected.id}
              onClick={() => setSelected(template)}
            >
              <span className="pol-templates__name">{template.templateName}</span>
              <span className="pol-templates__meta">
                <span className={`pol-command pol-command--${template.command.toLowerCase()}`}>{template.command}</span>
                {template.preview && <Badge tone="neutral">Preview only</Badge>}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <section className="pol-templates__detail" aria-label={`Template ${selected.templateName}`}>
        <h3 className="pol-templates__title">{selected.templateName}</h3>
        <p className="pol-templates__description">{selected.description}</p>
        <pre className="pol-sql" aria-label="Template SQL">
          {templateStatement(selected, table)}
        </pre>
        {selected.preview && <p className="pol-templates__reason">{PREVIEW_TEMPLATE_REASON}</p>}
        <Button variant="primary" disabledReason={selected.preview ? PREVIEW_TEMPLATE_REASON : undefined} onClick={() => onUse(selected)}>
          Use this template
        </Button>
      </section>
    </div>
  );
}
