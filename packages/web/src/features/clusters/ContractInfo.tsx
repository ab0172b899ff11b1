import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, CircularProgress, Stack, Tooltip, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ContractKind, formatDate } from '@trasa/domain';
import { saveBlob } from '../../api/client';
import { type ContractBrief, type ContractFileDto, downloadContractFile, locationDocuments } from '../../api/contracts';
import { messageOf } from '../../api/errors';
import { DetailRows } from '../../components/DetailRows';
import { useSnackbar } from '../../components/SnackbarProvider';
import { UI } from '../../texts';
import { CONTRACT_KIND_LABELS, shortName, statusLabel } from './format';
import { LOCATION_NOTICE_MS } from './notices';
import { CONTRACTS_KEY } from './queries';

/** The documents of the cluster's contract of one kind, each downloadable (GET /api/files/{route}/{contractId}/{fileId}). */
function ContractDocuments({ kind, contract, locationId }: { kind: ContractKind; contract: ContractBrief; locationId: string }) {
  const snackbar = useSnackbar();
  const documents = useQuery({
    queryKey: [...CONTRACTS_KEY, kind, 'documents', locationId, contract._id],
    queryFn: ({ signal }) => locationDocuments(kind, locationId, signal),
    retry: false,
  });
  const fetchFile = useMutation({
    mutationFn: (file: ContractFileDto) => downloadContractFile(kind, documents.data?.contract?._id ?? contract._id, file._id),
    onSuccess: ({ blob, fileName }, file) => saveBlob(blob, fileName || file.originalnoIme),
    onError: (error) => snackbar.error(messageOf(error, UI.downloadFailed), LOCATION_NOTICE_MS),
  });

  if (documents.isPending) return <CircularProgress size={20} aria-label={UI.loading} />;
  if (documents.isError) return <Alert severity="warning">{messageOf(documents.error, UI.downloadFailed)}</Alert>;
  const files = documents.data.fajlovi;
  if (files.length === 0) return <Typography color="text.secondary">{UI.noDocuments}</Typography>;
  return (
    <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {files.map((file) => (
        <li key={file._id}>
          <Tooltip title={file.originalnoIme}>
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              aria-label={`${UI.download}: ${file.originalnoIme}`}
              disabled={fetchFile.isPending && fetchFile.variables?._id === file._id}
              onClick={() => fetchFile.mutate(file)}
              sx={{ textAlign: 'left', justifyContent: 'flex-start' }}
            >
              {shortName(file.originalnoIme)}
            </Button>
          </Tooltip>
        </li>
      ))}
    </Stack>
  );
}

/** One contract of the cluster: its data and documents, or 'not linked'. */
export function ContractInfo({ kind, contract, locationId }: { kind: ContractKind; contract: ContractBrief | null; locationId: string }) {
  const title = CONTRACT_KIND_LABELS[kind];
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h6" component="h3" gutterBottom>
        {title}
      </Typography>
      {contract ? (
        <Stack spacing={1}>
          <DetailRows
            label={title}
            rows={[
              [UI.naziv, contract.naziv],
              [UI.broj, contract.broj],
              [UI.status, statusLabel(contract.status)],
              [UI.datumPocetka, formatDate(contract.datumPocetka) || UI.empty],
              [UI.rokZavrsetka, formatDate(contract.rokZavrsetka) || UI.empty],
              [UI.datumZavrsetka, formatDate(contract.datumZavrsetka) || UI.empty],
              [UI.documents, <ContractDocuments key="documents" kind={kind} contract={contract} locationId={locationId} />],
            ]}
          />
        </Stack>
      ) : (
        <Typography color="text.secondary">{UI.notLinked}</Typography>
      )}
    </Box>
  );
}
