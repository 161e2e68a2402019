import { publicImagesRoutes } from '../../plugins/public-images.js';
import { IMAGES_FOLDER, imageContentType, isImageName } from './announcement-files.js';

/** GET /api/files/announcements/:name: announcement images, shown by the dialog in an <img>. */
export const announcementFilesRoutes = publicImagesRoutes({
  url: '/files/announcements/:name',
  isName: isImageName,
  folder: IMAGES_FOLDER,
  contentType: imageContentType,
});
