-- The catalogue of known email sending services and the services attached to each domain
-- (GET/PATCH /domains/{id}/services, S1). Catalogue ids are stable: clients store them.
CREATE TABLE sending_services (
  id        INTEGER PRIMARY KEY,
  name      TEXT    NOT NULL UNIQUE,
  category  TEXT
);

INSERT INTO sending_services (id, name, category) VALUES
  (1, 'Google Workspace', 'mailbox_provider'),
  (2, 'Microsoft 365', 'mailbox_provider'),
  (3, 'Zoho Mail', 'mailbox_provider'),
  (4, 'Amazon SES', 'transactional'),
  (5, 'SendGrid', 'transactional'),
  (6, 'Postmark', 'transactional'),
  (7, 'Mailgun', 'transactional'),
  (8, 'SparkPost', 'transactional'),
  (9, 'Mailchimp', 'marketing'),
  (10, 'HubSpot', 'marketing'),
  (11, 'Brevo', 'marketing'),
  (12, 'Klaviyo', 'marketing'),
  (13, 'Salesforce', 'crm'),
  (14, 'Zendesk', 'support'),
  (15, 'Freshdesk', 'support'),
  (16, 'Intercom', 'support');

CREATE TABLE domain_services (
  domain_id    INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  service_id   INTEGER NOT NULL REFERENCES sending_services (id),
  attached_at  TEXT    NOT NULL,
  PRIMARY KEY (domain_id, service_id)
);
