import { useRef, type JSX } from 'react';
import { Alert, Button, Card, Col, Form, Row, Spinner } from 'react-bootstrap';
import { campaignCopyUi, defaultCampaignName, ui, type SessionUser } from '@herald/contract';
import { useSession } from '../../../lib/auth-store';
import { ConfirmDialog as AskDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/form-field';
import { ProgressMeter } from '../../../components/progress-meter';
import type { CopyRequest } from './campaign-copy';
import { ConfirmDialog } from './confirm-dialog';
import { CostLine, shortfallText } from './cost-line';
import { MediaFields } from './media-fields';
import { MessageField } from './message-field';
import { OwnerFields } from './owner-fields';
import { RecipientsField } from './recipients-field';
import { SuppressedLine } from './suppressed-line';
import { useCampaignForm } from './use-campaign-form';
import { useCampaignCopy } from './use-campaign-copy';
import { CopyNotes } from './copy-notes';
import { TemplateFields } from './template-fields';
import { sentAs } from './template-choice';
import { SendAtField } from './send-at-field';

interface CreateCampaignFormProps {
  onCreated?: () => void;
  /** A row's Clone or Resend: the form fills itself from that campaign. */
  copyRequest?: CopyRequest | null;
}

/** Create Campaign: the card on /campaigns. */
export function CreateCampaignForm(props: CreateCampaignFormProps): JSX.Element {
  const session = useSession();
  if (!session) return <Alert variant="warning">{ui.credits.pleaseLogIn}</Alert>;
  return <CampaignFormCard me={session.user} {...props} />;
}

function CampaignFormCard(props: CreateCampaignFormProps & { me: SessionUser }) {
  const { me } = props;
  const f = useCampaignForm(me, props.onCreated);
  const { values, errors, sending, setValue } = f;
  const shortfall = shortfallText(f.cost);
  const cardRef = useRef<HTMLDivElement>(null);
  const copy = useCampaignCopy({
    request: props.copyRequest ?? null,
    myEmail: me.email,
    holdsSomething: f.holdsSomething,
    fill: f.fill,
    onShow: () => cardRef.current?.scrollIntoView({ block: 'start' }),
    // Into view again (the closing row menu may have scrolled back to its row), then the focus
    // on the first field past Campaign For: focusing that search box would open its list.
    onFilled: () => {
      cardRef.current?.scrollIntoView({ block: 'start' });
      const fields = 'form input:not([role="combobox"]), form select, form textarea';
      cardRef.current?.querySelector<HTMLElement>(fields)?.focus({ preventScroll: true });
    },
  });
  const owner = f.copiedFrom?.owner;
  const { templates } = f;
  const asSent = sentAs(values, f.files, templates.template && templates);
  return (
    <Card className="shadow-sm mb-4" ref={cardRef}>
      <Card.Header as="h2" className="h5 mb-0">
        Create Campaign
      </Card.Header>
      <Card.Body>
        {f.loadFailed && <Alert variant="danger">{ui.campaigns.loadFailed}</Alert>}
        <Form noValidate onSubmit={(e) => void f.submit(e)} aria-label="Create Campaign">
          {f.draftRestored && (
            <p className="small text-muted border-start border-3 border-info ps-2" role="note">
              {ui.campaigns.draftRestored}
            </p>
          )}
          <CopyNotes
            copying={copy.copying}
            problem={copy.problem}
            onDismiss={copy.dismissProblem}
            copiedFrom={f.copiedFrom}
          />
          <OwnerFields
            me={me}
            users={f.users.data}
            term={f.ownerTerm}
            onTermChange={f.setOwnerTerm}
            searching={f.users.searching}
            userEmail={values.userEmail}
            userLabel={owner?.email === values.userEmail ? owner.label : undefined}
            creditType={values.creditType}
            available={f.available}
            balances={f.ownerBalances}
            errors={errors}
            disabled={sending}
            onUserEmail={(userEmail) => setValue({ userEmail })}
            onCreditType={f.setCreditType}
          />
          {f.features.international && (
            <Row>
              <Col md={6}>
                <TextField
                  controlId="campaign-country-name"
                  label="Country Name"
                  value={values.countryName}
                  error={errors.countryName}
                  disabled={sending}
                  onChange={(countryName) => setValue({ countryName })}
                />
              </Col>
              <Col md={6}>
                <TextField
                  controlId="campaign-country-code"
                  label="Country Code"
                  value={values.countryCode}
                  error={errors.countryCode}
                  disabled={sending}
                  onChange={(countryCode) => setValue({ countryCode })}
                />
              </Col>
            </Row>
          )}
          <TextField
            controlId="campaign-name"
            label="Campaign name"
            value={values.name}
            error={errors.name}
            hint={ui.campaigns.nameHint}
            placeholder={defaultCampaignName(asSent.values.message) || ui.campaigns.namePlaceholder}
            disabled={sending}
            onChange={(name) => setValue({ name })}
          />
          <TemplateFields
            offered={templates.offered}
            choice={templates.choice}
            template={templates.template}
            loadError={templates.loadError}
            error={errors.templateValues}
            disabled={sending}
            onChoose={templates.choose}
            onValue={templates.setValue}
          />
          {!templates.template && (
            <MessageField
              value={values.message}
              error={errors.message}
              disabled={sending}
              onChange={(message) => setValue({ message })}
            />
          )}
          <RecipientsField
            state={f.parser}
            text={f.parser.text}
            onTextChange={f.setRecipientsText}
            onAdd={f.addRecipients}
            onClear={f.clearRecipients}
            onRemove={f.removeRecipients}
            cost={
              <>
                <CostLine cost={f.cost} type={values.creditType} />
                <SuppressedLine keys={f.parser.recipients} userEmail={values.userEmail} />
              </>
            }
            error={errors.recipients}
            disabled={sending}
          />
          {(f.features.dp || !templates.template) && (
            <MediaFields
              key={f.formKey}
              dpOnly={!!templates.template}
              features={f.features}
              values={values}
              files={f.files}
              errors={errors}
              disabled={sending}
              onValues={setValue}
              onFiles={f.setFile}
              rejected={f.rejected}
              onRejected={f.setRejectedFile}
            />
          )}
          <SendAtField
            value={values.sendAt}
            error={errors.sendAt}
            disabled={sending}
            onChange={(sendAt) => setValue({ sendAt })}
          />
          {sending && <UploadProgress preparing={f.preparing} progress={f.progress} />}
          {f.blocker && !sending && (
            <Alert variant="warning">
              {f.blocker}
              {f.blocker === ui.campaigns.insufficientCredits && shortfall && (
                <strong className="ms-2" data-testid="campaign-shortfall">
                  {shortfall}
                </strong>
              )}
            </Alert>
          )}
          {f.outcome && (
            <Alert variant={f.outcome.ok ? 'success' : 'danger'}>{f.outcome.text}</Alert>
          )}
          <Button type="submit" disabled={f.locked || f.blocker !== null || !!copy.copying}>
            {sending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Create Campaign
          </Button>
        </Form>
        <ConfirmDialog
          show={f.pending !== null}
          values={asSent.values}
          files={asSent.files}
          features={f.features}
          template={templates.template}
          recipients={f.pending?.keys.length ?? 0}
          onConfirm={() => void f.confirm()}
          onBack={f.back}
        />
        <AskDialog
          show={copy.asking !== null}
          title={campaignCopyUi.replaceTitle}
          confirmLabel={campaignCopyUi.replaceConfirm}
          onConfirm={copy.confirm}
          onCancel={copy.cancel}
        >
          {campaignCopyUi.replaceText(copy.asking?.name ?? '')}
        </AskDialog>
      </Card.Body>
    </Card>
  );
}

function UploadProgress({ preparing, progress }: { preparing: boolean; progress: number }) {
  const percent = Math.round(progress * 100);
  let caption = 'Uploading…';
  if (preparing) caption = 'Preparing recipients…';
  else if (percent >= 100) caption = 'Saving campaign…';
  return (
    <div className="mb-3" aria-live="polite">
      <div className="small text-muted mb-1">{caption}</div>
      <ProgressMeter now={preparing ? 0 : percent} label={caption} text={`${percent}%`} animated />
    </div>
  );
}
