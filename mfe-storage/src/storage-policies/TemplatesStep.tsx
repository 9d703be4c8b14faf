import { useState } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { forBucket, STORAGE_POLICY_TEMPLATES, type StoragePolicyTemplate } from './templates';

/** The templates step: pick one of the five, read its SQL for this bucket, and use it. */
export function TemplatesStep({ bucket, onUse }: { bucket: string; onUse: (template: StoragePolicyTemplate) => void }) {
  const [selected, setSelected] = useState<StoragePolicyTemplate>(STORAGE_POLICY_TEMPLATES[0]!);
  return (
    <div className="st-templates">
      <p className="st-templates__intro">Select a template to use for your new policy</p>
      <div className="st-templates__grid">
        <ul className="st-templates__list" aria-label="Policy templates">
          {STORAGE_POLICY_TEMPLATES.map((template) => (
            <li key={template.id}>
              <button
                type="button"
                className={`st-templates__item${template.id === selected.id ? ' is-selected' : ''}`}
                aria-pressed={template.id === selected.id}
                onClick={() => setSelected(template)}
              >
                <span className="st-templates__name">{template.templateName}</span>
                <span className="st-templates__ops">
                  {template.allowedOperations.map((operation) => (
                    <span key={operation} className={`st-command st-command--${operation.toLowerCase()}`}>
                      {operation}
                    </span>
                  ))}
                </span>
              </button>
            </li>
          ))}
        </ul>
        <section className="st-templates__detail" aria-label={`Template ${selected.templateName}`}>
          <h3 className="st-templates__title">{selected.templateName}</h3>
          <p className="st-templates__description">{selected.description}</p>
          <pre className="st-sql" aria-label="Template SQL">
            {forBucket(selected.statement, bucket)}
          </pre>
          <Button variant="primary" onClick={() => onUse(selected)}>
            Use this template
          </Button>
        </section>
      </div>
    </div>
  );
}
