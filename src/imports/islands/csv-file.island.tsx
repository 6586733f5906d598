/**
 * Choosing a CSV file fills the import form's text box (a small island). The form is posted as
 * ordinary form fields, so without JavaScript the file's text is pasted into the box by hand;
 * with it, the file chooser appears and reads the file in the browser.
 */
for (const input of document.querySelectorAll<HTMLInputElement>('input[data-csv-into]')) {
  const target = document.getElementById(input.dataset.csvInto ?? '') as HTMLTextAreaElement | null;
  const nameField = document.getElementById(input.dataset.csvName ?? '') as HTMLInputElement | null;
  if (!target) continue;
  input.closest<HTMLElement>('[hidden]')?.removeAttribute('hidden');
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    target.value = await file.text();
    if (nameField) nameField.value = file.name;
  });
}
